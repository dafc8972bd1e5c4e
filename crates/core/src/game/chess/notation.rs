//! Move spellings seen on CECP and UCI lines, reduced to what shakmaty parses.

use shakmaty::uci::UciMove;

pub(super) enum CecpMove {
    MultiLeg,
    Coordinate(UciMove),
    San,
}

/// Coordinate forms first (`e2e4`, `e7e8q`, `e7e8=Q`, `P@e4`, `0000`, `@@@@`); everything
/// else is left to the SAN parser.
pub(super) fn classify_cecp(text: &str) -> CecpMove {
    if text.contains(',') {
        return CecpMove::MultiLeg;
    }
    if text == "@@@@" {
        return CecpMove::Coordinate(UciMove::Null);
    }
    let b = text.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    let coordinate = match b {
        [p, b'@', f, r] => b"PNBRQKpnbrqk".contains(p) && sq(*f, *r),
        [f1, r1, f2, r2] => sq(*f1, *r1) && sq(*f2, *r2),
        [f1, r1, f2, r2, p] | [f1, r1, f2, r2, b'=', p] => {
            sq(*f1, *r1) && sq(*f2, *r2) && b"qrbnkQRBNK".contains(p)
        }
        _ => false,
    };
    if coordinate {
        let compact: String = text.chars().filter(|c| *c != '=').collect();
        if let Ok(uci) = UciMove::from_ascii(compact.as_bytes()) {
            return CecpMove::Coordinate(uci);
        }
    }
    if text == "0000" {
        return CecpMove::Coordinate(UciMove::Null);
    }
    CecpMove::San
}

/// Rewrites the SAN dialects shakmaty does not read: zero castling (`0-0`, `o-o`),
/// annotation glyphs (`!`, `?`), and promotion without `=` (`e8Q`, `exd8n`).
pub(super) fn normalize_san(text: &str) -> String {
    let trimmed = text.trim_end_matches(['!', '?']);
    let castling = trimmed.starts_with(['0', 'o', 'O']);
    let mut s: String = trimmed
        .chars()
        .map(|c| match c {
            '0' | 'o' if castling => 'O',
            c => c,
        })
        .collect();
    let suffix_len = s.len() - s.trim_end_matches(['+', '#']).len();
    let suffix = s.split_off(s.len() - suffix_len);
    let bytes = s.as_bytes();
    if let [.., rank, piece] = bytes
        && (b'1'..=b'8').contains(rank)
        && b"QRBNKqrbnk".contains(piece)
        && !s.starts_with('O')
    {
        let piece = piece.to_ascii_uppercase() as char;
        s.pop();
        s.push('=');
        s.push(piece);
    } else if let [.., b'=', piece] = bytes
        && piece.is_ascii_lowercase()
    {
        let piece = piece.to_ascii_uppercase() as char;
        s.pop();
        s.push(piece);
    }
    s.push_str(&suffix);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_dialects() {
        assert_eq!(normalize_san("0-0"), "O-O");
        assert_eq!(normalize_san("0-0-0+"), "O-O-O+");
        assert_eq!(normalize_san("o-o"), "O-O");
        assert_eq!(normalize_san("e8Q"), "e8=Q");
        assert_eq!(normalize_san("exd8n#"), "exd8=N#");
        assert_eq!(normalize_san("e8=q"), "e8=Q");
        assert_eq!(normalize_san("Nf3!?"), "Nf3");
        assert_eq!(normalize_san("Bb5"), "Bb5");
    }

    #[test]
    fn cecp_shapes() {
        assert!(matches!(classify_cecp("c4d5,d5e4"), CecpMove::MultiLeg));
        assert!(matches!(
            classify_cecp("@@@@"),
            CecpMove::Coordinate(UciMove::Null)
        ));
        assert!(matches!(classify_cecp("e7e8=q"), CecpMove::Coordinate(_)));
        assert!(matches!(classify_cecp("P@e4"), CecpMove::Coordinate(_)));
        assert!(matches!(classify_cecp("Nf3"), CecpMove::San));
        assert!(matches!(classify_cecp("O-O"), CecpMove::San));
    }
}
