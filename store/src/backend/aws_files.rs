//! The AWS shared files (`~/.aws/credentials`, `~/.aws/config`), which the object store client
//! does not read by itself: a user who set up the AWS command-line tool expects koma to find
//! the same keys, region and endpoint. Environment variables still win over the files.

use crate::error::StoreError;
use ini::Ini;
use std::path::{Path, PathBuf};

/// What the files say for the selected profile.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Profile {
    /// `aws_access_key_id`.
    pub access_key_id: Option<String>,
    /// `aws_secret_access_key`.
    pub secret_access_key: Option<String>,
    /// `aws_session_token`.
    pub session_token: Option<String>,
    /// `region`.
    pub region: Option<String>,
    /// `endpoint_url`.
    pub endpoint_url: Option<String>,
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn home_file(name: &str) -> Option<PathBuf> {
    var("HOME").map(|h| Path::new(&h).join(".aws").join(name))
}

fn load(path: &Path) -> Result<Option<Ini>, StoreError> {
    if !path.exists() {
        return Ok(None);
    }
    Ini::load_from_file(path)
        .map(Some)
        .map_err(|e| StoreError::BadUrl {
            url: path.display().to_string(),
            reason: format!("unreadable AWS settings file: {e}"),
        })
}

fn get(ini: &Option<Ini>, section: &str, key: &str) -> Option<String> {
    ini.as_ref()?
        .section(Some(section))?
        .get(key)
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// Reads the profile named by `AWS_PROFILE` (else `default`) from the files named by
/// `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE` (else under `~/.aws`). Missing files
/// give an empty profile; a malformed file is an error naming it.
pub fn read_profile() -> Result<Profile, StoreError> {
    let name = var("AWS_PROFILE").unwrap_or_else(|| "default".into());
    let creds_path = var("AWS_SHARED_CREDENTIALS_FILE")
        .map(PathBuf::from)
        .or_else(|| home_file("credentials"));
    let config_path = var("AWS_CONFIG_FILE")
        .map(PathBuf::from)
        .or_else(|| home_file("config"));
    let creds = match &creds_path {
        Some(p) => load(p)?,
        None => None,
    };
    let config = match &config_path {
        Some(p) => load(p)?,
        None => None,
    };
    // The config file names profiles `[profile NAME]`, except `[default]`.
    let config_section = if name == "default" {
        "default".to_owned()
    } else {
        format!("profile {name}")
    };
    let both = |key: &str| get(&creds, &name, key).or_else(|| get(&config, &config_section, key));
    Ok(Profile {
        access_key_id: both("aws_access_key_id"),
        secret_access_key: both("aws_secret_access_key"),
        session_token: both("aws_session_token"),
        region: get(&config, &config_section, "region").or_else(|| get(&creds, &name, "region")),
        endpoint_url: get(&config, &config_section, "endpoint_url"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_sections_of_both_files() {
        let dir = std::env::temp_dir().join(format!("koma-aws-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let creds = dir.join("credentials");
        let config = dir.join("config");
        std::fs::write(
            &creds,
            "[default]\naws_access_key_id = AK1\naws_secret_access_key = SK1\n\n[lab]\naws_access_key_id=AK2\naws_secret_access_key=SK2\naws_session_token=T2\n",
        )
        .unwrap();
        std::fs::write(
            &config,
            "[default]\nregion = eu-west-1\n\n[profile lab]\nregion = us-west-2\nendpoint_url = http://127.0.0.1:8333\n",
        )
        .unwrap();
        // The environment is process-wide: this is the only test of the crate touching these.
        std::env::set_var("AWS_SHARED_CREDENTIALS_FILE", &creds);
        std::env::set_var("AWS_CONFIG_FILE", &config);
        std::env::remove_var("AWS_PROFILE");
        let d = read_profile().unwrap();
        assert_eq!(d.access_key_id.as_deref(), Some("AK1"));
        assert_eq!(d.region.as_deref(), Some("eu-west-1"));
        assert_eq!(d.endpoint_url, None);
        std::env::set_var("AWS_PROFILE", "lab");
        let lab = read_profile().unwrap();
        assert_eq!(lab.secret_access_key.as_deref(), Some("SK2"));
        assert_eq!(lab.session_token.as_deref(), Some("T2"));
        assert_eq!(lab.region.as_deref(), Some("us-west-2"));
        assert_eq!(lab.endpoint_url.as_deref(), Some("http://127.0.0.1:8333"));
        std::fs::write(&config, "[profile lab\nregion = x\n").unwrap();
        let e = read_profile().unwrap_err().to_string();
        assert!(e.contains("config") && e.contains("unreadable"), "{e}");
        std::env::remove_var("AWS_PROFILE");
        std::env::remove_var("AWS_SHARED_CREDENTIALS_FILE");
        std::env::remove_var("AWS_CONFIG_FILE");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
