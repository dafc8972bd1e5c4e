//! The documented output schemas in docs/, with a real JSON Schema validator (the `jsonschema`
//! crate, draft 2020-12, built without remote `$ref` resolving): what the commands print is
//! checked against them.

use serde_json::Value;
use std::path::Path;

/// A schema of `docs/`, ready to validate.
pub struct Schema {
    name: String,
    /// The schema as the file holds it.
    pub json: Value,
    validator: jsonschema::Validator,
}

/// `docs/NAME`, parsed and compiled (it must itself be a valid 2020-12 schema).
pub fn load(name: &str) -> Schema {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let json: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let validator = jsonschema::draft202012::new(&json)
        .unwrap_or_else(|e| panic!("{}: not a valid schema: {e}", p.display()));
    Schema {
        name: name.to_owned(),
        json,
        validator,
    }
}

impl Schema {
    /// Checks `v`; the error lists every violation with where it is (`/files/0/findings/2`).
    pub fn validate(&self, v: &Value) -> Result<(), String> {
        let errors: Vec<String> = self
            .validator
            .iter_errors(v)
            .map(|e| format!("at `{}`: {e}", e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!("breaks docs/{}:\n{}", self.name, errors.join("\n")))
        }
    }
}
