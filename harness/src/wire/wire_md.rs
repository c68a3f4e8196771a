//! The tables of sdks/WIRE.md, read so that tests can hold them against the code's constants.

const WIRE_MD: &str = include_str!("../../../sdks/WIRE.md");

/// The cells of each row of the first table after the line `heading`, header rows left out.
pub fn table(heading: &str) -> Vec<Vec<String>> {
    let mut lines = WIRE_MD.lines().skip_while(|l| *l != heading);
    assert!(lines.next().is_some(), "sdks/WIRE.md has no heading {heading:?}");
    lines
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| row.trim_matches('|').split('|').map(|cell| cell.trim().to_owned()).collect())
        .collect()
}

/// The rows naming one field (`| 48 | `size` | ...`): its offset and name.
pub fn fields(heading: &str) -> Vec<(usize, String)> {
    table(heading)
        .iter()
        .filter_map(|row| {
            let name = row[1].strip_prefix('`')?.strip_suffix('`')?;
            (!name.contains('`')).then(|| (row[0].parse().expect("an offset"), name.to_owned()))
        })
        .collect()
}

/// The rows as (number in the first cell, second cell).
pub fn numbered(heading: &str) -> Vec<(u32, String)> {
    table(heading).iter().map(|row| (row[0].parse().expect("a number"), row[1].clone())).collect()
}
