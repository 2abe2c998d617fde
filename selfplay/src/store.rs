//! The replay store: game chunks and published models behind the `object_store` API.
//!
//! The embedded default is a local directory (no server); tests use memory. Keys written by
//! workers are create-if-absent, so a retried upload never overwrites anything.

use crate::error::StoreError;
use futures::TryStreamExt;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path as Key;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload};
use std::path::Path;
use std::sync::Arc;

/// A blocking facade over an object store, shared by worker and trainer threads.
#[derive(Debug)]
pub struct Store {
    inner: Arc<dyn ObjectStore>,
    rt: tokio::runtime::Runtime,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime starts")
}

impl Store {
    /// A store in a local directory, created if absent.
    pub fn local(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        let fs = LocalFileSystem::new_with_prefix(dir).map_err(|source| StoreError::Backend {
            key: dir.display().to_string(),
            source,
        })?;
        Ok(Store {
            inner: Arc::new(fs),
            rt: runtime(),
        })
    }

    /// A store in memory (tests).
    pub fn memory() -> Store {
        Store {
            inner: Arc::new(InMemory::new()),
            rt: runtime(),
        }
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
        let r = self.rt.block_on(async {
            let g = self.inner.get(&Key::from(key)).await?;
            g.bytes().await
        });
        match r {
            Ok(b) => Ok(Some(b.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(Store::err(key)(e)),
        }
    }

    /// All keys under `prefix`, sorted.
    pub fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let p = Key::from(prefix);
        let mut keys: Vec<String> = self
            .rt
            .block_on(async {
                self.inner
                    .list(Some(&p))
                    .map_ok(|m| m.location.to_string())
                    .try_collect::<Vec<_>>()
                    .await
            })
            .map_err(Store::err(prefix))?;
        keys.sort();
        Ok(keys)
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
        }
    }
}
