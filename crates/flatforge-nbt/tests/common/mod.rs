//! Inputs the integration tests share.

/// Java NBT: `depth` compounds, each the entry `a` of the one around it (the outermost is the
/// root).
pub(crate) fn nested_compounds(depth: usize) -> Vec<u8> {
    let mut v = vec![10, 0, 0];
    for _ in 1..depth {
        v.extend_from_slice(&[10, 0, 1, b'a']);
    }
    v.extend(std::iter::repeat_n(0, depth));
    v
}
