//! The JSON Schemas (draft 2020-12) of the reports in `docs/`, generated from the report
//! types: their fields, and the doc comments as descriptions. A test compares each with its
//! file in `docs/` and fails when one is stale; regenerate them with
//! `KIBITZER_BLESS=1 cargo test --lib schemas`.
//!
//! The decode output (`docs/decode-output.schema.json`) is written by hand, like its
//! serialisation (`protocol::json`).

use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema};
use serde_json::Value;

/// A schema in `docs/`.
pub struct DocSchema {
    /// Its file name in `docs/`.
    pub file: &'static str,
    /// The schema, as the file holds it.
    pub render: fn() -> String,
}

/// Every generated schema of `docs/`.
pub const DOC_SCHEMAS: &[DocSchema] = &[
    DocSchema {
        file: "check-report.schema.json",
        render: || {
            render::<crate::rules::report::CheckReport>(
                "check-report.schema.json",
                &format!(
                    "kibitzer check report (`kibitzer check --format json`), schema {}",
                    crate::rules::report::SCHEMA
                ),
            )
        },
    },
    DocSchema {
        file: "report.schema.json",
        render: || {
            render::<crate::report::Report>(
                "report.schema.json",
                &format!(
                    "kibitzer tournament report (`kibitzer report --format json`), schema {}",
                    crate::report::SCHEMA
                ),
            )
        },
    },
    DocSchema {
        file: "probe-report.schema.json",
        render: || {
            render::<crate::probe::report::ProbeReport>(
                "probe-report.schema.json",
                &format!(
                    "kibitzer probe report card (`kibitzer probe --format json`), schema {}",
                    crate::probe::report::SCHEMA
                ),
            )
        },
    },
    DocSchema {
        file: "replay-report.schema.json",
        render: || {
            render::<crate::replay::report::ReplayReport>(
                "replay-report.schema.json",
                &format!(
                    "kibitzer replay report (`kibitzer replay --format json`), schema {}",
                    crate::replay::report::SCHEMA
                ),
            )
        },
    },
    DocSchema {
        file: "shrink-report.schema.json",
        render: || {
            render::<crate::shrink::report::ShrinkReport>(
                "shrink-report.schema.json",
                &format!(
                    "kibitzer shrink report (`kibitzer shrink --format json`), schema {}",
                    crate::shrink::report::SCHEMA
                ),
            )
        },
    },
    DocSchema {
        file: "c2w-suggestion.schema.json",
        render: || {
            render::<crate::probe::suggest::SuggestionReport>(
                "c2w-suggestion.schema.json",
                &format!(
                    "kibitzer c2w suggest --format json, schema {}: the .c2w profile suggested \
                     for a WinBoard engine and what was observed",
                    crate::probe::suggest::SCHEMA
                ),
            )
        },
    },
];

/// The schema of what `T` serialises to, with `file`'s `$id` and `title`.
pub fn generate<T: JsonSchema>(file: &str, title: &str) -> Schema {
    let mut schema = SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(RecursiveTransform(tidy))
        .into_generator()
        .into_root_schema_for::<T>();
    schema.insert(
        "$id".into(),
        format!("https://kibitzer.invalid/{file}").into(),
    );
    schema.insert("title".into(), title.into());
    schema
}

/// [`generate`] as the file in `docs/` holds it: pretty-printed, a newline at the end.
pub fn render<T: JsonSchema>(file: &str, title: &str) -> String {
    let schema = generate::<T>(file, title);
    // Serialising a JSON value cannot fail.
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// What every (sub)schema gets, so the generated schemas say what the hand-written ones said:
/// - an object has no fields but its type's (`additionalProperties: false`);
/// - a field left out when empty (`skip_serializing_if = "Option::is_none"`) is never `null`:
///   only the fields always written (so `required`) may be;
/// - a description is the doc comment with its lines joined (paragraphs kept).
fn tidy(schema: &mut Schema) {
    if let Some(Value::String(d)) = schema.get_mut("description") {
        *d = join_lines(d);
    }
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    if obj.contains_key("properties") && !obj.contains_key("additionalProperties") {
        obj.insert("additionalProperties".into(), false.into());
    }
    let required: Vec<String> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            if !required.contains(name) {
                not_null(prop);
            }
        }
    }
}

/// Takes `null` out of what a schema allows: `"type": ["string", "null"]` becomes
/// `"type": "string"`, `"anyOf": [X, {"type": "null"}]` becomes X.
fn not_null(prop: &mut Value) {
    let Some(obj) = prop.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if let [single] = types.as_slice() {
            let single = single.clone();
            obj.insert("type".into(), single);
        }
    }
    let any_of = obj.get_mut("anyOf").and_then(Value::as_array_mut);
    if let Some(any_of) = any_of {
        any_of.retain(|s| s.get("type").is_none_or(|t| t != "null"));
        if let [single] = any_of.as_slice()
            && let Some(single) = single.as_object().cloned()
        {
            obj.remove("anyOf");
            for (k, v) in single {
                obj.entry(k).or_insert(v);
            }
        }
    }
}

/// A doc comment's lines joined with spaces; blank lines (paragraphs) kept.
fn join_lines(doc: &str) -> String {
    doc.split("\n\n")
        .map(|para| para.lines().map(str::trim).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn docs_schemas_are_current() {
        let bless = std::env::var_os("KIBITZER_BLESS").is_some_and(|v| v == "1");
        let mut stale = Vec::new();
        for doc in DOC_SCHEMAS {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("docs")
                .join(doc.file);
            let rendered = (doc.render)();
            if bless {
                std::fs::write(&path, &rendered).unwrap();
                continue;
            }
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            if committed != rendered {
                let line = crate::rules::catalogue::first_differing_line(&committed, &rendered);
                stale.push(format!(
                    "docs/{} (first difference at line {})",
                    doc.file,
                    line + 1
                ));
            }
        }
        assert!(
            stale.is_empty(),
            "stale, not what the report types generate: {}; regenerate with \
             `KIBITZER_BLESS=1 cargo test --lib schemas` and commit",
            stale.join(", ")
        );
    }

    #[test]
    fn optional_fields_are_never_null_and_objects_are_closed() {
        let s = generate::<crate::rules::report::CheckReport>("x.json", "x");
        let v = s.as_value();
        assert_eq!(v["additionalProperties"], false);
        assert_eq!(v["properties"]["c2w"]["type"], "string");
        assert_eq!(
            v["properties"]["schema"]["const"],
            crate::rules::report::SCHEMA
        );
        let file = &v["$defs"]["FileReport"];
        assert_eq!(file["additionalProperties"], false);
        assert_eq!(file["properties"]["format"]["type"], "string");
        let s = generate::<crate::replay::report::ReplayReport>("x.json", "x");
        let v = s.as_value();
        // Always written, `null` when the replay never got there.
        let diff = &v["$defs"]["SearchDiff"]["properties"]["replay"];
        assert!(diff.to_string().contains("null"), "{diff}");
        assert_eq!(
            join_lines("one\nline\n\nand another"),
            "one line\n\nand another"
        );
    }
}
