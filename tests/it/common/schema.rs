//! The part of JSON Schema (2020-12) the documented output schemas in docs/ use, to validate
//! what the commands print: type (one or a list), const, enum, required, properties,
//! additionalProperties: false, items, minItems/maxItems, oneOf, allOf, if/then and local $ref.

use serde_json::Value;
use std::path::Path;

/// `docs/NAME`, parsed.
pub fn load(name: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Checks `v` against `schema`; the error names where (`$.msg.score`) and what.
pub fn validate(root: &Value, schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("only local $defs references are supported: {r}"));
        let target = &root["$defs"][name];
        assert!(!target.is_null(), "{at}: $ref {r} names nothing");
        return validate(root, target, v, at);
    }
    match &schema["type"] {
        Value::String(t) => check_type(t, v, at)?,
        Value::Array(ts)
            if !ts
                .iter()
                .any(|t| check_type(t.as_str().unwrap_or(""), v, at).is_ok()) =>
        {
            return Err(format!("{at}: expected one of {ts:?}, got {v}"));
        }
        _ => {}
    }
    if let Some(c) = schema.get("const")
        && c != v
    {
        return Err(format!("{at}: expected {c}, got {v}"));
    }
    if let Some(e) = schema["enum"].as_array()
        && !e.contains(v)
    {
        return Err(format!("{at}: {v} not in {e:?}"));
    }
    if let (Some(req), Some(obj)) = (schema["required"].as_array(), v.as_object()) {
        for k in req {
            let k = k.as_str().unwrap_or("");
            if !obj.contains_key(k) {
                return Err(format!("{at}: missing {k}"));
            }
        }
    }
    if let Some(obj) = v.as_object() {
        let props = schema["properties"].as_object();
        for (k, x) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => validate(root, s, x, &format!("{at}.{k}"))?,
                None if schema["additionalProperties"] == false => {
                    return Err(format!("{at}: unexpected field {k}"));
                }
                None => {}
            }
        }
    }
    if let Some(arr) = v.as_array() {
        if let Some(items) = schema.get("items") {
            for (i, x) in arr.iter().enumerate() {
                validate(root, items, x, &format!("{at}[{i}]"))?;
            }
        }
        let len = arr.len() as u64;
        if schema["minItems"].as_u64().is_some_and(|n| len < n)
            || schema["maxItems"].as_u64().is_some_and(|n| len > n)
        {
            return Err(format!("{at}: {len} items, outside minItems/maxItems"));
        }
    }
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            validate(root, s, v, at)?;
        }
    }
    if let Some(cond) = schema.get("if")
        && validate(root, cond, v, at).is_ok()
        && let Some(then) = schema.get("then")
    {
        validate(root, then, v, at)?;
    }
    if let Some(any) = schema["oneOf"].as_array() {
        let results: Vec<Result<(), String>> =
            any.iter().map(|s| validate(root, s, v, at)).collect();
        let ok = results.iter().filter(|r| r.is_ok()).count();
        if ok != 1 {
            // The branch for this object's `type`, when one says so, explains best.
            let why = any
                .iter()
                .zip(&results)
                .find(|(s, _)| type_const(root, s).is_some_and(|t| v.get("type") == Some(t)))
                .and_then(|(_, r)| r.clone().err())
                .unwrap_or_else(|| format!("{ok} branches match"));
            return Err(format!("{at}: not exactly one of oneOf: {why}"));
        }
    }
    Ok(())
}

/// The `properties.type.const` of a schema (through a `$ref`), which the output schemas use
/// to tell object kinds apart.
fn type_const<'a>(root: &'a Value, schema: &'a Value) -> Option<&'a Value> {
    let s = match schema["$ref"].as_str() {
        Some(r) => &root["$defs"][r.strip_prefix("#/$defs/")?],
        None => schema,
    };
    s["properties"]["type"].get("const")
}

fn check_type(t: &str, v: &Value, at: &str) -> Result<(), String> {
    let ok = match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => return Err(format!("{at}: schema type {other} not supported")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{at}: expected {t}, got {v}"))
    }
}
