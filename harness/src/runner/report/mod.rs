//! The report of one `harness run`: its contents as the runs arrive, and one renderer per format
//! (terminal, Markdown, JSON, HTML). The files are rewritten atomically after each run and say
//! how many runs they hold until the last one.

pub mod charts;
mod columns;
mod html;
mod json;
mod markdown;
mod render;
mod contents;
mod terminal;

use std::path::{Path, PathBuf};

pub use columns::per;
pub use contents::{Report, WorkloadReport, unit};
pub use render::Render;
pub use terminal::Terminal;

use super::settings::Format;

/// The file extension and renderer of a format.
fn renderer(format: Format) -> (&'static str, &'static dyn Render) {
    match format {
        Format::Md => ("md", &markdown::Markdown),
        Format::Json => ("json", &json::Json),
        Format::Html => ("html", &html::Html),
    }
}

/// Writes `<dir>/<report name>.<ext>` for each format, each through a temporary name and a
/// rename, so a reader never sees half.
pub fn write(report: &Report, dir: &Path, formats: &[Format]) -> anyhow::Result<Vec<PathBuf>> {
    formats
        .iter()
        .map(|&format| {
            let (ext, renderer) = renderer(format);
            let path = dir.join(format!("{}.{ext}", report.name));
            atomic_write(&path, &renderer.render(report))?;
            Ok(path)
        })
        .collect()
}

pub fn atomic_write(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension(format!("{}.tmp", path.extension().and_then(|e| e.to_str()).unwrap_or("")));
    std::fs::write(&tmp, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
