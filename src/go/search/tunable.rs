//! Tunables declared once: [`tunables!`] turns one table (name, type, default, range, doc)
//! into a struct of named fields, its `Default`, the setter `SHICHO_TUNE` uses, and a
//! listing ([`Listed`]) that `shicho tunables` prints and `doc/search.md` shows, so that a
//! new weight cannot exist without its name, its default or its comment (Monty declares its
//! search parameters the same way).

use std::fmt;

/// Where a value given by name is clamped to before it is kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// Kept as given (negative weights included).
    Any,
    /// Raised to the bound (`f32::max`: a NaN becomes the bound).
    AtLeast(f32),
    /// Clamped into the bounds (`f32::clamp`: a NaN stays NaN, 0 once made an integer).
    Within(f32, f32),
}

impl Range {
    pub fn apply(self, v: f32) -> f32 {
        match self {
            Range::Any => v,
            Range::AtLeast(low) => v.max(low),
            Range::Within(low, high) => v.clamp(low, high),
        }
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Range::Any => write!(f, "any"),
            Range::AtLeast(low) => write!(f, "at least {low}"),
            Range::Within(low, high) => write!(f, "{low} to {high}"),
        }
    }
}

/// A type a tunable can have: how its value is read from `SHICHO_TUNE` and written back.
pub trait Tuned: Sized {
    /// What the listing calls its values.
    const KIND: &'static str;
    /// The value `text` gives, clamped to `range`; `None` when it is no value of the kind.
    fn parse(text: &str, range: Range) -> Option<Self>;
    /// The value as `SHICHO_TUNE` would give it.
    fn show(&self) -> String;
}

impl Tuned for f32 {
    const KIND: &'static str = "number";

    fn parse(text: &str, range: Range) -> Option<f32> {
        text.trim().parse().ok().map(|v| range.apply(v))
    }

    fn show(&self) -> String {
        self.to_string()
    }
}

/// Read as a number and cut to an integer after clamping (`2.7` is 2; beyond `u32::MAX`,
/// `u32::MAX`), as every tunable has always been read.
impl Tuned for u32 {
    const KIND: &'static str = "integer";

    fn parse(text: &str, range: Range) -> Option<u32> {
        f32::parse(text, range).map(|v| v as u32)
    }

    fn show(&self) -> String {
        // The "off" of the settings that count levels or simulations.
        if *self == u32::MAX {
            "u32::MAX".to_string()
        } else {
            self.to_string()
        }
    }
}

/// Two numbers, `a/b` (no spaces).
impl Tuned for [f32; 2] {
    const KIND: &'static str = "number/number";

    fn parse(text: &str, range: Range) -> Option<[f32; 2]> {
        let (a, b) = text.split_once('/')?;
        let (a, b): (f32, f32) = (a.parse().ok()?, b.parse().ok()?);
        Some([range.apply(a), range.apply(b)])
    }

    fn show(&self) -> String {
        format!("{}/{}", self[0], self[1])
    }
}

/// One tunable as the listing shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// Its `SHICHO_TUNE` name, the field's.
    pub name: &'static str,
    /// What values it takes ([`Tuned::KIND`]).
    pub kind: &'static str,
    /// Its default, as `SHICHO_TUNE` would give it.
    pub default: String,
    pub range: Range,
    /// Its doc comment, one line of the source a line.
    pub doc: &'static str,
}

impl Listed {
    /// The doc comment's lines, intra-doc links shown as the code they name.
    pub fn doc_lines(&self) -> impl Iterator<Item = String> {
        self.doc
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(|line| line.replace("[`", "`").replace("`]", "`"))
    }

    /// The doc comment as one paragraph.
    pub fn doc_paragraph(&self) -> String {
        self.doc_lines().collect::<Vec<_>>().join(" ")
    }
}

/// A struct of tunables, each declared once:
///
/// ```text
/// tunables! {
///     /// The struct's doc.
///     #[derive(Clone, Debug, PartialEq)]
///     pub struct Weights {
///         /// The field's doc, which the listing shows too.
///         name: f32 = 1.5, Range::AtLeast(0.0);
///     }
///     /// A nested struct of tunables, set by its own names.
///     inner: InnerWeights,
/// }
/// ```
///
/// gives the struct with each field's doc, `Default` (a nested struct's own), `set(name,
/// value)` for `SHICHO_TUNE` (a nested struct's names too) and `listing()`. A field's type
/// is [`Tuned`]; its range is a [`Range`].
macro_rules! tunables {
    (
        $(#[$meta:meta])*
        pub struct $Struct:ident {
            $(
                $(#[doc = $doc:expr])+
                $name:ident: $ty:ty = $default:expr, $range:expr;
            )*
        }
        $(
            $(#[doc = $nested_doc:expr])+
            $nested:ident: $Nested:ty,
        )*
    ) => {
        $(#[$meta])*
        pub struct $Struct {
            $(
                $(#[doc = $doc])+
                pub $name: $ty,
            )*
            $(
                $(#[doc = $nested_doc])+
                pub $nested: $Nested,
            )*
        }

        impl Default for $Struct {
            fn default() -> $Struct {
                $Struct {
                    $($name: $default,)*
                    $($nested: <$Nested>::default(),)*
                }
            }
        }

        impl $Struct {
            /// Sets the tunable called `name` from `value`, clamped to its range: `false`
            /// (and nothing changed) for an unknown name or a value that does not parse.
            pub fn set(&mut self, name: &str, value: &str) -> bool {
                match name {
                    $(
                        stringify!($name) => {
                            let range: $crate::go::search::tunable::Range = $range;
                            match <$ty as $crate::go::search::tunable::Tuned>::parse(value, range) {
                                Some(v) => {
                                    self.$name = v;
                                    true
                                }
                                None => false,
                            }
                        }
                    )*
                    _ => {
                        $(
                            if self.$nested.set(name, value) {
                                return true;
                            }
                        )*
                        false
                    }
                }
            }

            /// Every tunable, in the order declared (a nested struct's after the others),
            /// with its default, range and doc.
            pub fn listing() -> Vec<$crate::go::search::tunable::Listed> {
                let defaults = $Struct::default();
                #[allow(unused_mut)]
                let mut listing = vec![$({
                    let range: $crate::go::search::tunable::Range = $range;
                    $crate::go::search::tunable::Listed {
                        name: stringify!($name),
                        kind: <$ty as $crate::go::search::tunable::Tuned>::KIND,
                        default: $crate::go::search::tunable::Tuned::show(&defaults.$name),
                        range,
                        doc: concat!($($doc, "\n"),+),
                    }
                }),*];
                $(listing.extend(<$Nested>::listing());)*
                listing
            }
        }
    };
}

pub(crate) use tunables;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_clamped_as_they_always_were() {
        let within = Range::Within(0.0, 1.9);
        assert_eq!(f32::parse(" 2.5 ", within), Some(1.9));
        assert!(f32::parse("NaN", within).unwrap().is_nan());
        assert_eq!(f32::parse("NaN", Range::AtLeast(1.0)), Some(1.0));
        assert_eq!(f32::parse("-3", Range::Any), Some(-3.0));
        assert_eq!(f32::parse("x", Range::Any), None);
        assert_eq!(u32::parse("2.7", Range::AtLeast(1.0)), Some(2));
        assert_eq!(u32::parse("0", Range::AtLeast(1.0)), Some(1));
        assert_eq!(u32::parse("1e12", Range::AtLeast(0.0)), Some(u32::MAX));
        assert_eq!(u32::parse("NaN", Range::Within(0.0, 100.0)), Some(0));
        assert_eq!(<[f32; 2]>::parse("3/4", Range::Any), Some([3.0, 4.0]));
        assert_eq!(<[f32; 2]>::parse("3 /4", Range::Any), None);
        assert_eq!(<[f32; 2]>::parse("5", Range::Any), None);
    }

    #[test]
    fn defaults_are_shown_as_they_are_given() {
        assert_eq!(0.1f32.show(), "0.1");
        assert_eq!(1000.0f32.show(), "1000");
        assert_eq!(u32::MAX.show(), "u32::MAX");
        assert_eq!([12.0, 8.0].show(), "12/8");
        assert_eq!(Range::Within(0.25, 4.0).to_string(), "0.25 to 4");
        assert_eq!(Range::AtLeast(1.0).to_string(), "at least 1");
    }
}
