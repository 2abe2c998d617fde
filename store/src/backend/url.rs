//! Where a store lives, written as a URL: `file://PATH` (or a bare path), `s3://bucket/prefix`,
//! `memory://`. One parser, so every command that takes `--store` reads it the same way.

use crate::error::StoreError;
use std::path::PathBuf;

/// A parsed store location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreUrl {
    /// A local directory.
    File(PathBuf),
    /// An S3 bucket (any S3-compatible service), with an optional key prefix.
    S3 {
        /// The bucket.
        bucket: String,
        /// Key prefix inside the bucket, without leading or trailing slashes (may be empty).
        prefix: String,
    },
    /// A store in this process's memory (tests).
    Memory,
}

impl StoreUrl {
    /// Parses `text`; errors name the URL and what is wrong with it.
    pub fn parse(text: &str) -> Result<StoreUrl, StoreError> {
        let bad = |reason: &str| StoreError::BadUrl {
            url: text.to_owned(),
            reason: reason.to_owned(),
        };
        let t = text.trim();
        if t.is_empty() {
            return Err(bad("empty"));
        }
        let Some((scheme, rest)) = t.split_once("://") else {
            // A bare path is a local directory.
            return Ok(StoreUrl::File(PathBuf::from(t)));
        };
        match scheme.to_ascii_lowercase().as_str() {
            "file" => {
                if rest.is_empty() {
                    return Err(bad(
                        "file:// needs a path (file:///abs/dir or file://rel/dir)",
                    ));
                }
                Ok(StoreUrl::File(PathBuf::from(rest)))
            }
            "s3" | "s3a" => {
                let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
                if bucket.is_empty() {
                    return Err(bad("no bucket (expected s3://bucket/prefix)"));
                }
                let valid = bucket.len() >= 3
                    && bucket.len() <= 63
                    && bucket.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.'
                    });
                if !valid {
                    return Err(bad(
                        "a bucket name is 3 to 63 characters: lower-case letters, digits, '-' and '.'",
                    ));
                }
                let prefix = prefix.trim_matches('/');
                if prefix.split('/').any(|p| p == "." || p == "..") && !prefix.is_empty() {
                    return Err(bad("the prefix may not contain '.' or '..' parts"));
                }
                Ok(StoreUrl::S3 {
                    bucket: bucket.to_owned(),
                    prefix: prefix.to_owned(),
                })
            }
            "memory" => {
                if !rest.is_empty() {
                    return Err(bad("memory:// takes nothing after it"));
                }
                Ok(StoreUrl::Memory)
            }
            other => Err(bad(&format!(
                "unknown scheme '{other}' (file://, s3:// or memory://)"
            ))),
        }
    }
}

impl std::fmt::Display for StoreUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreUrl::File(p) => write!(f, "file://{}", p.display()),
            StoreUrl::S3 { bucket, prefix } if prefix.is_empty() => write!(f, "s3://{bucket}"),
            StoreUrl::S3 { bucket, prefix } => write!(f, "s3://{bucket}/{prefix}"),
            StoreUrl::Memory => write!(f, "memory://"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_scheme() {
        assert_eq!(
            StoreUrl::parse("file:///tmp/run/store").unwrap(),
            StoreUrl::File("/tmp/run/store".into())
        );
        assert_eq!(
            StoreUrl::parse("runs/x/store").unwrap(),
            StoreUrl::File("runs/x/store".into())
        );
        assert_eq!(
            StoreUrl::parse("s3://koma-runs/hand/run1/").unwrap(),
            StoreUrl::S3 {
                bucket: "koma-runs".into(),
                prefix: "hand/run1".into()
            }
        );
        assert_eq!(
            StoreUrl::parse("s3://koma").unwrap(),
            StoreUrl::S3 {
                bucket: "koma".into(),
                prefix: String::new()
            }
        );
        assert_eq!(StoreUrl::parse("memory://").unwrap(), StoreUrl::Memory);
        assert_eq!(
            StoreUrl::parse("s3://koma-runs/hand").unwrap().to_string(),
            "s3://koma-runs/hand"
        );
    }

    #[test]
    fn rejects_bad_urls_naming_them() {
        for (url, want) in [
            ("", "empty"),
            ("s3://", "no bucket"),
            ("s3://Bad_Bucket/x", "bucket name"),
            ("s3://koma/a/../b", "'..'"),
            ("gs://koma/x", "unknown scheme 'gs'"),
            ("memory://x", "nothing after"),
            ("file://", "needs a path"),
        ] {
            let e = StoreUrl::parse(url).unwrap_err().to_string();
            assert!(e.contains(want), "{url}: {e}");
            assert!(e.contains(&format!("'{url}'")), "{url}: {e}");
        }
    }
}
