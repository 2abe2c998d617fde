//! `--store` and its connection settings, shared by every command that reads or writes a
//! run's store.

use clap::Args;
use koma_store::{StoreOptions, StoreUrl};
use std::path::Path;

/// Where the run's games and models are kept.
#[derive(Debug, Args, Clone)]
pub struct StoreArgs {
    /// The store: `file://DIR` or a path (default: the run directory's `store/`),
    /// `s3://BUCKET/PREFIX` (credentials and region from the AWS environment variables and
    /// ~/.aws files), or `memory://`.
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
    /// Endpoint of an S3-compatible service (e.g. http://10.0.0.5:8333).
    #[arg(long, value_name = "URL")]
    pub store_endpoint: Option<String>,
    /// Allow a plain-HTTP store endpoint (no TLS).
    #[arg(long)]
    pub store_allow_http: bool,
}

impl StoreArgs {
    /// The store URL, with `run_dir/store` as the default.
    pub fn url(&self, run_dir: &Path) -> anyhow::Result<StoreUrl> {
        match &self.store {
            Some(u) => Ok(StoreUrl::parse(u)?),
            None => Ok(StoreUrl::File(run_dir.join("store"))),
        }
    }

    /// Opens the store a read-only command was given: `--store`, else `run_dir`'s `store/`.
    pub fn open_given(&self, run_dir: Option<&Path>) -> anyhow::Result<koma_store::Store> {
        let url = match (&self.store, run_dir) {
            (Some(_), _) => self.url(Path::new("."))?,
            (None, Some(dir)) => self.url(dir)?,
            (None, None) => {
                anyhow::bail!("give the store: --store URL, or --run-dir DIR for DIR/store")
            }
        };
        Ok(koma_store::Store::open(&url, &self.options())?)
    }

    /// The connection settings.
    pub fn options(&self) -> StoreOptions {
        StoreOptions {
            endpoint: self.store_endpoint.clone(),
            allow_http: self.store_allow_http,
        }
    }
}
