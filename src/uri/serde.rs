//! The optional `serde` feature: a URI is its text. [`Uri`] and [`UriBuf`]
//! serialize as strings; a [`UriBuf`] deserializes from a string that must
//! be a valid URI reference; [`Mode`] as its CLI name (`reference`, `uri`,
//! `absolute`); an [`Error`] as its offset, component, kind and message.

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{Uri, UriBuf};
use crate::grammar::{Error, Mode};

impl Serialize for Uri<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for UriBuf {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for UriBuf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UriBuf, D::Error> {
        let text = String::deserialize(d)?;
        UriBuf::parse(text, Mode::Reference).map_err(de::Error::custom)
    }
}

impl Serialize for Mode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Mode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Mode, D::Error> {
        let name = String::deserialize(d)?;
        [Mode::Reference, Mode::Uri, Mode::Absolute]
            .into_iter()
            .find(|m| m.as_str() == name)
            .ok_or_else(|| de::Error::unknown_variant(&name, &["reference", "uri", "absolute"]))
    }
}

impl Serialize for Error {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut e = s.serialize_struct("Error", 4)?;
        e.serialize_field("offset", &self.offset())?;
        e.serialize_field("component", self.component().as_str())?;
        e.serialize_field("kind", self.kind().name())?;
        e.serialize_field("message", &self.to_string())?;
        e.end()
    }
}

#[cfg(test)]
mod tests {
    use serde::de::value::{Error as DeError, StrDeserializer};
    use serde::de::IntoDeserializer;

    use super::*;

    #[test]
    fn uri_buf_deserializes_valid_text_only() {
        let d: StrDeserializer<'_, DeError> = "http://a/b".into_deserializer();
        assert_eq!(UriBuf::deserialize(d).unwrap().as_str(), "http://a/b");
        let d: StrDeserializer<'_, DeError> = "http://a/b c".into_deserializer();
        let err = UriBuf::deserialize(d).unwrap_err().to_string();
        assert!(err.contains("' '"), "{err}");
        let d: StrDeserializer<'_, DeError> = "absolute".into_deserializer();
        assert_eq!(Mode::deserialize(d).unwrap(), Mode::Absolute);
        let d: StrDeserializer<'_, DeError> = "url".into_deserializer();
        assert!(Mode::deserialize(d).is_err());
    }

    /// What each value serializes to (JSON here): a URI as its text, a
    /// mode as its CLI name, an error as its four fields.
    #[test]
    fn values_serialize_as_their_text() {
        let uri = crate::parse(b"http://a/b?q", Mode::Uri).unwrap();
        assert_eq!(json(&uri), r#""http://a/b?q""#);
        assert_eq!(json(&UriBuf::from(uri)), r#""http://a/b?q""#);
        assert_eq!(json(&Mode::Absolute), r#""absolute""#);
        let e = crate::parse(b"http://a/b c", Mode::Uri).unwrap_err();
        assert_eq!(
            json(&e),
            format!(
                r#"{{"offset":10,"component":"path","kind":"{}","message":"{}"}}"#,
                e.kind().name(),
                e
            )
        );
    }

    fn json<T: Serialize + ?Sized>(value: &T) -> String {
        serde_json::to_string(value).expect("serializes")
    }
}
