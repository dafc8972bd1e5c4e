//! Reading the JSON reports back into their types (`Deserialize`): the report types keep some
//! texts as `&'static str` (a schema tag, a hang's label, a step's id, a protocol's name),
//! which serde cannot borrow from a JSON text that does not live for ever. These helpers, used
//! with `#[serde(deserialize_with = "...")]`, give such a field its text: a report's `schema`
//! tag must be the one the type writes, and any other text is interned, allocated once per
//! distinct text for the life of the process (the texts come from small fixed sets: labels,
//! step ids, protocol names).

use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};

/// `&'static str`, for a field read with one of these helpers. serde's derive takes a field
/// spelled `&'static str` (or `Option<&'static str>`) to borrow from the input, and then reads the whole type only from
/// input that lives for ever (`Deserialize<'static>`); under another name it does not
/// (serde-rs/serde#2665).
pub type StaticStr = &'static str;

/// `text` as a `&'static str`, the same one for every call with the same text.
pub fn intern(text: &str) -> &'static str {
    static SEEN: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut seen = SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(s) = seen.get(text) {
        return s;
    }
    let s: &'static str = Box::leak(text.into());
    seen.insert(s);
    s
}

/// A `&'static str` field.
pub fn interned<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let text = <Cow<'de, str>>::deserialize(d)?;
    Ok(intern(&text))
}

/// An `Option<&'static str>` field (give it `#[serde(default)]` too when it may be absent).
pub fn interned_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'static str>, D::Error> {
    let text = <Option<Cow<'de, str>>>::deserialize(d)?;
    Ok(text.map(|t| intern(&t)))
}

/// A `Vec<&'static str>` field.
pub fn interned_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
    let texts = <Vec<Cow<'de, str>>>::deserialize(d)?;
    Ok(texts.iter().map(|t| intern(t)).collect())
}

/// A report's `schema` tag, which must be `want` (`kibitzer-check/3`): a report of another
/// version is not read as this one.
pub fn tag<'de, D: Deserializer<'de>>(d: D, want: &'static str) -> Result<&'static str, D::Error> {
    let text = <Cow<'de, str>>::deserialize(d)?;
    if text == want {
        Ok(want)
    } else {
        Err(serde::de::Error::custom(format!(
            "schema `{text}`, expected `{want}`"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Report {
        #[serde(deserialize_with = "schema")]
        schema: StaticStr,
        #[serde(deserialize_with = "interned")]
        label: StaticStr,
        #[serde(default, deserialize_with = "interned_opt")]
        protocol: Option<StaticStr>,
        #[serde(deserialize_with = "interned_vec")]
        fields: Vec<StaticStr>,
    }

    fn schema<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
        tag(d, "kibitzer-test/1")
    }

    #[test]
    fn texts_are_read_back_and_interned_once() {
        let text = r#"{"schema":"kibitzer-test/1","label":"ST\"ALL","fields":["depth","pv"]}"#;
        // From a text that does not outlive the report.
        let owned = String::from(text);
        let r: Report = serde_json::from_str(&owned).unwrap();
        drop(owned);
        assert_eq!(r.schema, "kibitzer-test/1");
        assert_eq!(r.label, "ST\"ALL");
        assert_eq!(r.protocol, None);
        assert_eq!(r.fields, ["depth", "pv"]);
        let again: Report = serde_json::from_str(text).unwrap();
        assert!(std::ptr::eq(r.label, again.label));
        let with: Report = serde_json::from_str(
            r#"{"schema":"kibitzer-test/1","label":"x","protocol":"uci","fields":[]}"#,
        )
        .unwrap();
        assert_eq!(with.protocol, Some("uci"));
    }

    #[test]
    fn another_schema_version_is_refused() {
        let e = serde_json::from_str::<Report>(
            r#"{"schema":"kibitzer-test/2","label":"x","fields":[]}"#,
        )
        .err()
        .unwrap();
        assert!(e.to_string().contains("expected `kibitzer-test/1`"), "{e}");
    }
}
