//! The lines the engine writes besides its answers: errors and warnings, laid out and
//! worded as KataGo's analysis engine writes them (`cpp/command/analysis.cpp`).

use serde_json::{Map, Value};

/// Whether the query was refused or goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The query is dropped: nothing else is written for it.
    Error,
    /// The query is analysed all the same.
    Warning,
}

/// One error or warning line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub severity: Severity,
    pub text: String,
    /// The query's id and the field at fault; `None` for a line that is no query at all
    /// (not JSON, no id, an unknown action).
    pub about: Option<(String, String)>,
}

impl Message {
    /// An error that concerns no query's field: `{"error":TEXT}`.
    pub fn error(text: impl Into<String>) -> Message {
        Message {
            severity: Severity::Error,
            text: text.into(),
            about: None,
        }
    }

    /// `{"error":TEXT,"field":FIELD,"id":ID}`.
    pub fn field_error(id: &str, field: &str, text: impl Into<String>) -> Message {
        Message {
            severity: Severity::Error,
            text: text.into(),
            about: Some((id.to_string(), field.to_string())),
        }
    }

    /// `{"field":FIELD,"id":ID,"warning":TEXT}`.
    pub fn field_warning(id: &str, field: &str, text: impl Into<String>) -> Message {
        Message {
            severity: Severity::Warning,
            text: text.into(),
            about: Some((id.to_string(), field.to_string())),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The line as KataGo writes it (its keys in alphabetical order, as every object here).
    pub fn to_json(&self) -> Value {
        let mut line = Map::new();
        let key = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        line.insert(key.into(), Value::from(self.text.as_str()));
        if let Some((id, field)) = &self.about {
            line.insert("id".into(), Value::from(id.as_str()));
            line.insert("field".into(), Value::from(field.as_str()));
        }
        Value::Object(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_katagos() {
        assert_eq!(
            Message::error("Request must have a string \"id\" field")
                .to_json()
                .to_string(),
            r#"{"error":"Request must have a string \"id\" field"}"#
        );
        assert_eq!(
            Message::field_error("q", "komi", "Must be a boolean")
                .to_json()
                .to_string(),
            r#"{"error":"Must be a boolean","field":"komi","id":"q"}"#
        );
        assert_eq!(
            Message::field_warning("q", "x", "w").to_json().to_string(),
            r#"{"field":"x","id":"q","warning":"w"}"#
        );
    }
}
