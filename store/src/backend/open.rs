//! Building the object store behind a [`StoreUrl`]: the local file system, memory, or S3 with
//! settings from the standard AWS environment variables and files, bounded timeouts and a
//! short retry policy (longer outages are ridden out by the callers, who log and try again).

use super::aws_files;
use super::url::StoreUrl;
use crate::error::StoreError;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::prefix::PrefixStore;
use object_store::{BackoffConfig, ClientOptions, ObjectStore, RetryConfig};
use std::sync::Arc;
use std::time::Duration;

/// Settings beside the URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreOptions {
    /// S3 endpoint of an S3-compatible service (else `AWS_ENDPOINT_URL`, the AWS config file,
    /// or AWS itself).
    pub endpoint: Option<String>,
    /// Allow a plain-HTTP endpoint (also `AWS_ALLOW_HTTP=true`).
    pub allow_http: bool,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The object store for `url`.
pub fn backend(url: &StoreUrl, opts: &StoreOptions) -> Result<Arc<dyn ObjectStore>, StoreError> {
    match url {
        StoreUrl::Memory => Ok(Arc::new(InMemory::new())),
        StoreUrl::File(dir) => {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                path: dir.display().to_string(),
                source,
            })?;
            let fs = LocalFileSystem::new_with_prefix(dir).map_err(|e| StoreError::BadUrl {
                url: url.to_string(),
                reason: e.to_string(),
            })?;
            Ok(Arc::new(fs))
        }
        StoreUrl::S3 { bucket, prefix } => s3(url, bucket, prefix, opts),
    }
}

fn s3(
    url: &StoreUrl,
    bucket: &str,
    prefix: &str,
    opts: &StoreOptions,
) -> Result<Arc<dyn ObjectStore>, StoreError> {
    let bad = |reason: String| StoreError::BadUrl {
        url: url.to_string(),
        reason,
    };
    let profile = aws_files::read_profile()?;
    let mut b = AmazonS3Builder::from_env().with_bucket_name(bucket);
    if env("AWS_ACCESS_KEY_ID").is_none() {
        if let (Some(k), Some(s)) = (&profile.access_key_id, &profile.secret_access_key) {
            b = b.with_access_key_id(k).with_secret_access_key(s);
            if let Some(t) = &profile.session_token {
                b = b.with_token(t);
            }
        }
    }
    if env("AWS_REGION").is_none() && env("AWS_DEFAULT_REGION").is_none() {
        b = b.with_region(profile.region.as_deref().unwrap_or("us-east-1"));
    }
    let endpoint = opts
        .endpoint
        .clone()
        .or_else(|| env("AWS_ENDPOINT_URL_S3"))
        .or_else(|| env("AWS_ENDPOINT_URL"))
        .or_else(|| env("AWS_ENDPOINT"))
        .or(profile.endpoint_url);
    let allow_http =
        opts.allow_http || env("AWS_ALLOW_HTTP").is_some_and(|v| v.eq_ignore_ascii_case("true"));
    if let Some(e) = &endpoint {
        let lower = e.to_ascii_lowercase();
        if lower.starts_with("http://") && !allow_http {
            return Err(bad(format!(
                "the endpoint {e} is plain HTTP; pass --store-allow-http (or set AWS_ALLOW_HTTP=true) to use it"
            )));
        }
        if !lower.starts_with("http://") && !lower.starts_with("https://") {
            return Err(bad(format!(
                "the endpoint {e} is not an http:// or https:// URL"
            )));
        }
        b = b.with_endpoint(e);
    }
    let client = ClientOptions::new()
        .with_allow_http(allow_http)
        .with_connect_timeout(Duration::from_secs(5))
        .with_timeout(Duration::from_secs(120));
    let retry = RetryConfig {
        backoff: BackoffConfig {
            init_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(4),
            base: 2.0,
        },
        max_retries: 3,
        retry_timeout: Duration::from_secs(20),
    };
    let s3 = b
        .with_client_options(client)
        .with_retry(retry)
        .build()
        .map_err(|e| bad(e.to_string()))?;
    if prefix.is_empty() {
        Ok(Arc::new(s3))
    } else {
        Ok(Arc::new(PrefixStore::new(s3, prefix)))
    }
}
