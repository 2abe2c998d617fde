//! The page of `koma play`: its HTML, style sheet and script, kept as the files a web
//! developer edits (`page/index.html`, `page/koma.css`, `page/koma.js`) and embedded in the
//! binary at build time, so the server needs nothing beside itself.

/// A file of the page: its path on the server, content type and text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// Path the server answers it at.
    pub path: &'static str,
    /// Its content type.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
}

/// The page's document.
pub const PAGE: &str = include_str!("page/index.html");

/// Every file of the page, the document first.
pub const ASSETS: [Asset; 3] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: PAGE,
    },
    Asset {
        path: "/koma.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("page/koma.css"),
    },
    Asset {
        path: "/koma.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("page/koma.js"),
    },
];

/// The file served at `path` (`/index.html` is the document too).
pub fn asset(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}
