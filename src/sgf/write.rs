//! What every game's SGF writer shares: properties with their values escaped, and the
//! layout of the move lines.

/// Moves per line, to keep lines short enough for text tools and mail.
pub const MOVES_PER_LINE: usize = 10;

/// `ident[value]` with `value` escaped.
pub fn push_property(out: &mut String, ident: &str, value: &str) {
    out.push_str(ident);
    push_value(out, value);
}

/// `[value]`, escaping the two characters that would end or escape the value early.
pub fn push_value(out: &mut String, value: &str) {
    out.push('[');
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
}
