//! Help for a name that is not there: "did you mean ...?" (the closest candidate name by edit
//! distance), or the list of the names there are.

/// The candidate closest to `name`, if it is close enough to be a plausible typo (at most a
/// third of the name's length in edits, not counting case, and at least one edit allowed; a match
/// that differs only in case always qualifies). A candidate that shares no character with `name`
/// in place (every character edited, as `x` for `z`) is no typo of it.
///
/// ```
/// use flatforge_schema::closest;
/// assert_eq!(closest("colour", ["color", "hp", "name"]), Some("color"));
/// assert_eq!(closest("Strin", ["string", "int"]), Some("string"));
/// assert_eq!(closest("mana", ["color", "hp", "name"]), None);
/// assert_eq!(closest("z", ["x", "y"]), None);
/// assert_eq!(closest("x", ["X", "xy"]), Some("X"));
/// ```
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = name.chars().count();
    let limit = (len / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    let lower = name.to_ascii_lowercase();
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        // Case does not count (`Strin` is one edit from `string`).
        let d = if candidate.eq_ignore_ascii_case(name) {
            0
        } else {
            distance(&lower, &candidate.to_ascii_lowercase())
        };
        let replaced_all = d > 0 && d >= len.max(candidate.chars().count());
        if d <= limit
            && !replaced_all
            && best.is_none_or(|(bd, bc)| d < bd || (d == bd && candidate < bc))
        {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Names for a help message, at most `limit` of them: `a, b, c`, or the first `limit` and how
/// many there are in all.
///
/// ```
/// use flatforge_schema::listed;
/// assert_eq!(listed(&["Red", "Green", "Blue"], 20), "Red, Green, Blue");
/// assert_eq!(listed(&["a", "b", "c", "d"], 2), "a, b, ... (4 in all)");
/// ```
pub fn listed(names: &[&str], limit: usize) -> String {
    if names.len() <= limit {
        names.join(", ")
    } else {
        format!(
            "{}, ... ({} in all)",
            names[..limit].join(", "),
            names.len()
        )
    }
}

/// Levenshtein distance, counting an adjacent transposition as one edit.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 8 {
        return usize::MAX;
    }
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos() {
        let names = ["Monster", "Weapon", "Vec3"];
        assert_eq!(closest("Monstr", names), Some("Monster"));
        assert_eq!(closest("monster", names), Some("Monster"));
        assert_eq!(closest("Wepaon", names), Some("Weapon"));
        assert_eq!(closest("Table", names), None);
        assert_eq!(closest("Monster", names), None);
    }

    #[test]
    fn short_names_need_a_character_in_common() {
        assert_eq!(closest("z", ["x"]), None);
        assert_eq!(closest("ab", ["cd"]), None);
        assert_eq!(closest("x", ["xy"]), Some("xy"));
        assert_eq!(closest("xy", ["x"]), Some("x"));
        assert_eq!(closest("ab", ["ba"]), Some("ba"));
        assert_eq!(closest("hp", ["hq"]), Some("hq"));
    }
}
