//! Markdown for BENCHMARKS.md: prose wrapped to a width, and one generated section replaced
//! in place.

/// `text` with its prose lines longer than `width` broken at spaces (list items continue
/// indented); table rows, headings and comments stay as they are.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let keep = line.starts_with(['|', '#', '<']) || line.chars().count() <= width;
        if keep {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = if line.starts_with("- ") { "  " } else { "" };
        let mut cur = String::new();
        for word in line.split(' ') {
            if !cur.trim().is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
                out.push_str(cur.trim_end());
                out.push('\n');
                cur = indent.to_owned();
            } else if !cur.is_empty() && !cur.ends_with(' ') {
                cur.push(' ');
            }
            cur.push_str(word);
        }
        out.push_str(&cur);
        out.push('\n');
    }
    out
}

/// `doc` with its generated section replaced by `new_section` (which holds the markers):
/// the text between `begin` (up to its first `:`) and `end` when both are there; else the
/// section under `heading` (from that heading to the next `## ` heading, the next generated
/// section's `<!-- BEGIN` marker, or the end); else
/// `new_section` appended. Everything else is kept byte for byte.
pub fn replace_section(
    doc: &str,
    new_section: &str,
    begin: &str,
    end: &str,
    heading: &str,
) -> String {
    let new_section = new_section.trim_end_matches('\n');
    // The marker up to its colon: what follows it may change, and `bench` must not match
    // `bench-lib`.
    let start = doc.find(begin.find(':').map_or(begin, |i| &begin[..=i]));
    if let Some(b) = start
        && let Some(e) = doc[b..].find(end).map(|e| b + e + end.len())
    {
        return format!("{}{new_section}{}", &doc[..b], &doc[e..]);
    }
    let at = doc
        .match_indices(heading)
        .map(|(i, _)| i)
        .find(|&i| i == 0 || doc.as_bytes()[i - 1] == b'\n');
    if let Some(h) = at {
        let after = h + heading.len();
        let next = |pat: &str| doc[after..].find(pat).map_or(doc.len(), |i| after + i + 1);
        let end = next("\n## ").min(next("\n<!-- BEGIN "));
        let tail = &doc[end..];
        let sep = if tail.is_empty() { "\n" } else { "\n\n" };
        return format!("{}{new_section}{sep}{tail}", &doc[..h]);
    }
    let mut out = doc.trim_end_matches('\n').to_owned();
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(new_section);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_prose_only() {
        let text = "| a b c d e f g h i j |\n- one two three four\nplain words here\n";
        assert_eq!(
            wrap(text, 10),
            "| a b c d e f g h i j |\n- one two\n  three\n  four\nplain\nwords here\n"
        );
    }
}
