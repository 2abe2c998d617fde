//! The replay store: game chunks and published models behind the `object_store` API.
//!
//! A store is named by a URL ([`StoreUrl`]): a local directory (the default, no server), any
//! S3-compatible service, or memory for tests. Keys written by workers are create-if-absent,
//! so a retried upload never overwrites anything.

mod aws_files;
mod open;
mod url;

pub use open::StoreOptions;
pub use url::StoreUrl;

use crate::error::StoreError;
use futures::TryStreamExt;
use object_store::path::Path as Key;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload};
use std::path::Path;
use std::sync::Arc;

/// Requests in flight at once for the calls that make many ([`Store::get_many`],
/// [`Store::list_after_each`]).
pub const CONCURRENT: usize = 16;

/// A blocking facade over an object store, shared by worker and trainer threads.
#[derive(Debug)]
pub struct Store {
    inner: Arc<dyn ObjectStore>,
    rt: tokio::runtime::Runtime,
    url: String,
}

/// An object's key, size and modification time (seconds since the Unix epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectInfo {
    /// Its key.
    pub key: String,
    /// Its size in bytes.
    pub size: u64,
    /// When it was written, in seconds since the Unix epoch.
    pub modified: i64,
}

fn runtime() -> tokio::runtime::Runtime {
    // One I/O thread: callers block on each operation, and the HTTP client's connection tasks
    // need a runtime that keeps running between calls.
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("store-io")
        .enable_all()
        .build()
        .expect("a tokio runtime starts")
}

impl Store {
    /// Opens the store named by `url`.
    pub fn open(url: &StoreUrl, opts: &StoreOptions) -> Result<Store, StoreError> {
        Ok(Store {
            inner: open::backend(url, opts)?,
            rt: runtime(),
            url: url.to_string(),
        })
    }

    /// A store in a local directory, created if absent.
    pub fn local(dir: &Path) -> Result<Store, StoreError> {
        Store::open(&StoreUrl::File(dir.to_path_buf()), &StoreOptions::default())
    }

    /// A store in memory (tests).
    pub fn memory() -> Store {
        Store::open(&StoreUrl::Memory, &StoreOptions::default()).expect("memory stores open")
    }

    /// The URL the store was opened with (for logs).
    pub fn url(&self) -> &str {
        &self.url
    }

    fn err(key: &str) -> impl FnOnce(object_store::Error) -> StoreError + '_ {
        move |source| StoreError::Backend {
            key: key.to_owned(),
            source,
        }
    }

    /// Writes `bytes` under `key` unless the key exists; returns whether it was written.
    pub fn put_new(&self, key: &str, bytes: Vec<u8>) -> Result<bool, StoreError> {
        let opts = PutOptions {
            mode: PutMode::Create,
            ..Default::default()
        };
        let r = self.rt.block_on(self.inner.put_opts(
            &Key::from(key),
            PutPayload::from(bytes),
            opts,
        ));
        match r {
            Ok(_) => Ok(true),
            Err(object_store::Error::AlreadyExists { .. }) => Ok(false),
            Err(e) => Err(Store::err(key)(e)),
        }
    }

    /// Writes `bytes` under `key`, replacing what was there (atomically).
    pub fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StoreError> {
        self.rt
            .block_on(self.inner.put(&Key::from(key), PutPayload::from(bytes)))
            .map(|_| ())
            .map_err(Store::err(key))
    }

    /// The bytes under `key`, or `None` if absent.
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.rt.block_on(self.fetch(key))
    }

    /// The bytes under each of `keys` (`None` where absent), fetched [`CONCURRENT`] at a time:
    /// against a remote store, one request after another would spend the time waiting.
    pub fn get_many(&self, keys: &[String]) -> Vec<Result<Option<Vec<u8>>, StoreError>> {
        use futures::StreamExt;
        self.rt.block_on(
            futures::stream::iter(keys.iter().map(|k| self.fetch(k)))
                .buffered(CONCURRENT)
                .collect::<Vec<_>>(),
        )
    }

    /// One object's bytes, `None` if absent (the one read that `get` and `get_many` share).
    async fn fetch(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let r = async {
            let g = self.inner.get(&Key::from(key)).await?;
            g.bytes().await
        }
        .await;
        match r {
            Ok(b) => Ok(Some(b.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(Store::err(key)(e)),
        }
    }

    /// Removes `key` (absent keys are not an error).
    pub fn delete(&self, key: &str) -> Result<(), StoreError> {
        match self.rt.block_on(self.inner.delete(&Key::from(key))) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(Store::err(key)(e)),
        }
    }

    /// Keys under `prefix` with their sizes and times, sorted by key.
    pub fn list_info(&self, prefix: &str) -> Result<Vec<ObjectInfo>, StoreError> {
        let p = Key::from(prefix);
        let mut out: Vec<ObjectInfo> = self
            .rt
            .block_on(async {
                self.inner
                    .list(Some(&p))
                    .map_ok(|m| ObjectInfo {
                        key: m.location.to_string(),
                        size: m.size,
                        modified: m.last_modified.timestamp(),
                    })
                    .try_collect::<Vec<_>>()
                    .await
            })
            .map_err(Store::err(prefix))?;
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    /// All keys under `prefix`, sorted.
    pub fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        Ok(self.list_info(prefix)?.into_iter().map(|o| o.key).collect())
    }

    /// Keys under `prefix` that sort after `after` (all of them for `None`), sorted. On S3
    /// this is one listing from `StartAfter`, so its cost follows the keys returned, not the
    /// keys under the prefix.
    pub fn list_after(&self, prefix: &str, after: Option<&str>) -> Result<Vec<String>, StoreError> {
        self.list_after_each(&[(prefix.to_owned(), after.map(str::to_owned))])
    }

    /// [`Self::list_after`] for each `(prefix, after)`, [`CONCURRENT`] listings at a time; all
    /// the keys, sorted.
    pub fn list_after_each(
        &self,
        listings: &[(String, Option<String>)],
    ) -> Result<Vec<String>, StoreError> {
        use futures::StreamExt;
        let lists: Vec<Result<Vec<String>, StoreError>> = self.rt.block_on(
            futures::stream::iter(listings.iter().map(|(prefix, after)| async move {
                let p = Key::from(prefix.as_str());
                let stream = match after {
                    Some(a) => self
                        .inner
                        .list_with_offset(Some(&p), &Key::from(a.as_str())),
                    None => self.inner.list(Some(&p)),
                };
                stream
                    .map_ok(|m| m.location.to_string())
                    .try_collect::<Vec<_>>()
                    .await
                    .map_err(Store::err(prefix))
            }))
            .buffer_unordered(CONCURRENT)
            .collect::<Vec<_>>(),
        );
        let mut out = Vec::new();
        for l in lists {
            out.extend(l?);
        }
        out.sort();
        Ok(out)
    }

    /// The names one level below `prefix` that hold keys (`games` gives the worker ids of
    /// `games/<id>/...`), sorted.
    pub fn list_dirs(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let p = Key::from(prefix);
        let listed = self
            .rt
            .block_on(self.inner.list_with_delimiter(Some(&p)))
            .map_err(Store::err(prefix))?;
        let mut out: Vec<String> = listed
            .common_prefixes
            .iter()
            .filter_map(|d| d.filename().map(str::to_owned))
            .collect();
        out.sort();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_if_absent_never_overwrites() {
        for store in [
            Store::memory(),
            Store::local(&std::env::temp_dir().join(format!("koma-store-{}", std::process::id())))
                .unwrap(),
        ] {
            assert!(store.put_new("games/w0/1.chunk", b"one".to_vec()).unwrap());
            assert!(!store.put_new("games/w0/1.chunk", b"two".to_vec()).unwrap());
            assert_eq!(store.get("games/w0/1.chunk").unwrap().unwrap(), b"one");
            assert_eq!(store.get("games/w0/2.chunk").unwrap(), None);
            store.put("models/LATEST", b"a".to_vec()).unwrap();
            store.put("models/LATEST", b"b".to_vec()).unwrap();
            assert_eq!(store.get("models/LATEST").unwrap().unwrap(), b"b");
            assert_eq!(
                store.list("games").unwrap(),
                vec!["games/w0/1.chunk".to_owned()]
            );
            let info = store.list_info("games").unwrap();
            assert_eq!(info.len(), 1);
            assert_eq!(info[0].size, 3);
            assert!(info[0].modified > 1_700_000_000);
            for k in ["games/w0/2.chunk", "games/w0/3.chunk", "games/w1/1.chunk"] {
                store.put_new(k, b"x".to_vec()).unwrap();
            }
            assert_eq!(store.list_dirs("games").unwrap(), ["w0", "w1"]);
            assert_eq!(
                store
                    .list_after("games/w0", Some("games/w0/1.chunk"))
                    .unwrap(),
                ["games/w0/2.chunk", "games/w0/3.chunk"]
            );
            assert_eq!(
                store.list_after("games/w0", None).unwrap().len(),
                3,
                "no offset: every key"
            );
            assert!(store
                .list_after("games/w1", Some("games/w1/1.chunk"))
                .unwrap()
                .is_empty());
            for k in store.list("games").unwrap() {
                store.delete(&k).unwrap();
            }
            store.delete("games/w0/1.chunk").unwrap();
            assert!(store.list("games").unwrap().is_empty());
        }
    }
}
