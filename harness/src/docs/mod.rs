//! The documents' generated blocks. No figure in README.md, idgen/README.md, docs/ or
//! results/README.md is typed by hand: each sits between `<!-- begin NAME -->` and
//! `<!-- end NAME -->`, and `harness docs` rewrites every such block from the committed result
//! files (`blocks::render`); `harness docs --check`, which the tests run, fails where a block
//! differs from what it would write.

mod blocks;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The documents with generated blocks, relative to the repository root: these, and every
/// Markdown file in docs/.
const DOCS: &[&str] = &["README.md", "idgen/README.md", "results/README.md"];
/// Of those, the ones where every figure must be generated (idgen/README.md is the crate's own
/// documentation, whose figures are its tables' and its design's).
fn no_hand_typed(doc: &Path) -> bool {
    doc != Path::new("idgen/README.md")
}

/// Every document `harness docs` keeps, relative to `root`.
pub fn documents(root: &Path) -> Result<Vec<PathBuf>> {
    let mut docs: Vec<PathBuf> = DOCS.iter().map(PathBuf::from).collect();
    let dir = root.join("docs");
    let mut in_docs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    in_docs.retain(|p| p.extension().is_some_and(|e| e == "md"));
    in_docs.sort();
    docs.extend(in_docs.into_iter().map(|p| p.strip_prefix(root).unwrap().to_owned()));
    Ok(docs)
}

/// A generated block found in a document: its name and the byte range of its body.
#[derive(Debug, PartialEq)]
pub struct Block {
    pub name: String,
    pub body: std::ops::Range<usize>,
}

fn begin_marker(name: &str) -> String {
    format!("<!-- begin {name} -->")
}

fn end_marker(name: &str) -> String {
    format!("<!-- end {name} -->")
}

/// The blocks of `text`, in order. A begin marker without its end, or an end before any begin,
/// is an error naming the line.
pub fn blocks(text: &str) -> Result<Vec<Block>> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(start) = text[at..].find("<!-- begin ").map(|i| i + at) {
        let close = text[start..].find(" -->").map(|i| i + start).context("a begin marker without its closing -->")?;
        let name = text[start + "<!-- begin ".len()..close].trim().to_owned();
        let body_start = close + " -->".len();
        let end = end_marker(&name);
        let Some(body_end) = text[body_start..].find(&end).map(|i| i + body_start) else {
            bail!("line {}: `{}` has no `{end}`", line_of(text, start), begin_marker(&name));
        };
        found.push(Block { name, body: body_start..body_end });
        at = body_end + end.len();
    }
    if let Some(stray) = text[at..].find("<!-- end ") {
        bail!("line {}: an end marker with no begin marker before it", line_of(text, at + stray));
    }
    Ok(found)
}

fn line_of(text: &str, byte: usize) -> usize {
    text[..byte].matches('\n').count() + 1
}

/// `text` with every block's body rendered afresh; `doc` is the document's path relative to
/// `root`, for the links a block writes.
pub fn regenerate(root: &Path, doc: &Path, text: &str) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for block in blocks(text)? {
        let body = blocks::render(root, doc, &block.name).with_context(|| format!("block `{}`", block.name))?;
        out.push_str(&text[copied..block.body.start]);
        out.push('\n');
        out.push_str(body.trim_end());
        out.push('\n');
        copied = block.body.end;
    }
    out.push_str(&text[copied..]);
    Ok(out)
}

/// What `update` found: the documents whose blocks differed from what the result files give,
/// and every figure typed by hand (`doc:line: figure`).
#[derive(Debug, Default)]
pub struct Findings {
    pub stale: Vec<PathBuf>,
    pub hand_typed: Vec<String>,
}

/// Rewrites (or with `check`, only compares) every document's blocks.
pub fn update(root: &Path, check: bool) -> Result<Findings> {
    let mut findings = Findings::default();
    for doc in documents(root)? {
        let path = root.join(&doc);
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        if no_hand_typed(&doc) {
            let typed = hand_typed(&text).with_context(|| doc.display().to_string())?;
            findings.hand_typed.extend(typed.into_iter().map(|(line, f)| format!("{}:{line}: {f}", doc.display())));
        }
        let fresh = regenerate(root, &doc, &text).with_context(|| doc.display().to_string())?;
        if fresh != text {
            if !check {
                std::fs::write(&path, &fresh).with_context(|| format!("writing {}", path.display()))?;
            }
            findings.stale.push(doc);
        }
    }
    Ok(findings)
}

/// Figures typed by hand into `text`'s prose, outside its generated blocks, with their lines: a
/// percentage, a decimal, a ratio (`2.5x`) or a count of time (`40 ns`). Code (fenced or inline),
/// link targets and comments are not prose; neither is a number that is only a name or a
/// specification (`AES-128`, `16-byte`, `issue 15`, a `95% CI`).
pub fn hand_typed(text: &str) -> Result<Vec<(usize, String)>> {
    let mut prose = text.to_owned();
    for block in blocks(text)?.iter().rev() {
        let blank: String = text[block.body.clone()].chars().filter(|c| *c == '\n').collect();
        prose.replace_range(block.body.clone(), &blank);
    }
    let mut found = Vec::new();
    let mut fenced = false;
    for (i, line) in prose.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            found.extend(figures(&strip_code_and_links(line)).into_iter().map(|f| (i + 1, f)));
        }
    }
    Ok(found)
}

/// A line without its inline code, link targets and HTML comments.
fn strip_code_and_links(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find(['`', ']', '<']) {
        out.push_str(&rest[..i]);
        let (open, close) = match &rest[i..] {
            r if r.starts_with('`') => ("`", "`"),
            r if r.starts_with("](") => ("](", ")"),
            r if r.starts_with("<!--") => ("<!--", "-->"),
            _ => {
                out.push_str(&rest[i..i + 1]);
                rest = &rest[i + 1..];
                continue;
            }
        };
        rest = rest[i + open.len()..].split_once(close).map_or("", |(_, after)| after);
        out.push(' ');
    }
    out + rest
}

fn figures(prose: &str) -> Vec<String> {
    const UNITS: &[&str] = &["%", "x", " ns", " ms", " µs", " s ", " msgs/s", " IDs/s", "ns", "ms"];
    let bytes = prose.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < bytes.len()
            && (bytes[end].is_ascii_digit()
                || (b".,".contains(&bytes[end]) && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)))
        {
            end += 1;
        }
        let number = &prose[i..end];
        let after = &prose[end..];
        let unit = UNITS.iter().find(|u| {
            after.starts_with(**u)
                && !after[u.len()..].chars().next().is_some_and(|c| c.is_alphanumeric() && u.len() == 1)
        });
        // "95% CI" names the interval's confidence level: a choice, not a measurement.
        let level = after.starts_with("% CI") || after.starts_with("% confidence");
        if (number.contains('.') || unit.is_some()) && !level {
            found.push(format!("{number}{}", unit.map_or("", |u| u.trim_end())));
        }
        i = end.max(i + 1);
    }
    found
}

/// `target` (relative to the root) as a link from `doc`'s folder.
fn link(doc: &Path, target: &str) -> String {
    let depth = doc.parent().map_or(0, |p| p.components().count());
    let dir = doc.parent().unwrap_or(Path::new(""));
    match Path::new(target).strip_prefix(dir) {
        Ok(rest) if depth > 0 => rest.display().to_string(),
        _ => format!("{}{target}", "../".repeat(depth)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_with_their_bodies() {
        let text = "a\n<!-- begin x -->\nold\n<!-- end x -->\nb <!-- begin y z -->\n<!-- end y z -->\n";
        let found = blocks(text).unwrap();
        assert_eq!(found.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(), ["x", "y z"]);
        assert_eq!(&text[found[0].body.clone()], "\nold\n");
    }

    #[test]
    fn an_unclosed_or_stray_marker_is_an_error_naming_its_line() {
        let err = blocks("a\n\n<!-- begin x -->\nbody\n").unwrap_err().to_string();
        assert!(err.contains("line 3") && err.contains("<!-- end x -->"), "{err}");
        let err = blocks("a\n<!-- end x -->\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn figures_in_prose_are_found_and_code_links_and_blocks_are_not() {
        let text = "fast is 2.5x uuid, +16% here and 40 ns there, a 95% CI.\n`1.5%` [a](results/1.5.md) AES-128 16-byte\n\
                    ```\nPRECISION=0.5% scripts/bench.sh\n```\n<!-- begin x -->\n9.9%\n<!-- end x -->\nissue 15, 3 of 20\n";
        let found = hand_typed(text).unwrap();
        assert_eq!(found, [(1, "2.5x".into()), (1, "16%".into()), (1, "40 ns".into())]);
    }

    #[test]
    fn links_are_relative_to_the_document() {
        assert_eq!(link(Path::new("README.md"), "results/a.md"), "results/a.md");
        assert_eq!(link(Path::new("docs/method.md"), "results/a.md"), "../results/a.md");
        assert_eq!(link(Path::new("results/README.md"), "results/a.md"), "a.md");
        assert_eq!(link(Path::new("idgen/README.md"), "results/a.md"), "../results/a.md");
    }
}
