//! Reading one report of a live analysis (`kata-analyze`, `lz-analyze`): a line of `info`
//! groups, one per move the search considers,
//!
//! ```text
//! info move D4 visits 836 winrate 4656 prior 839 lcb 4640 order 0 pv D4 Q16 info move ...
//! ```
//!
//! Leela Zero (and shicho's `lz-analyze`) write win rates in ten-thousandths, KataGo (and
//! shicho's `kata-analyze`) as fractions. KataGo adds `scoreLead`, and a `rootInfo` group
//! when asked. The position's value is the best move's (`order 0`, else the first group),
//! as Lizzie and Sabaki show it; the visits are the root's when given, else the sum over the
//! moves.

/// How an analysis command writes win rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `lz-analyze`: ten-thousandths.
    LeelaZero,
    /// `kata-analyze`: fractions.
    KataGo,
}

impl Dialect {
    pub fn command(self) -> &'static str {
        match self {
            Dialect::LeelaZero => "lz-analyze",
            Dialect::KataGo => "kata-analyze",
        }
    }
}

/// One report: the side to move's win rate (0..1) by the best move, its score lead if
/// given, the visits so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    pub winrate: f64,
    pub score_lead: Option<f64>,
    pub visits: u64,
}

/// The report on one line; `None` for a line that holds no usable `info` group (an engine
/// may print other lines, such as `ownership`, or nothing yet).
pub fn parse_report(line: &str, dialect: Dialect) -> Option<Report> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut best: Option<(u64, f64, Option<f64>)> = None; // (order, winrate, lead)
    let mut visits_sum: u64 = 0;
    let mut root_visits = None;
    let mut i = 0;
    while i < words.len() {
        let kind = words[i];
        i += 1;
        let mut end = i;
        while end < words.len() && words[end] != "info" && words[end] != "rootInfo" {
            end += 1;
        }
        // `pv` runs to the group's end; the keys before it come in pairs.
        let group = &words[i..end];
        let value = |key: &str| {
            let pv = group.iter().position(|w| *w == "pv").unwrap_or(group.len());
            group[..pv]
                .chunks(2)
                .find(|pair| pair.len() == 2 && pair[0] == key)
                .map(|pair| pair[1])
        };
        let number = |key: &str| {
            value(key)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|x| x.is_finite())
        };
        match kind {
            "info" => {
                let visits = number("visits")
                    .filter(|v| *v >= 0.0)
                    .map_or(0, |v| v as u64);
                visits_sum += visits;
                let winrate = number("winrate").map(|w| match dialect {
                    Dialect::LeelaZero => w / 10000.0,
                    Dialect::KataGo => w,
                });
                if let Some(w) = winrate.filter(|w| (0.0..=1.0).contains(w)) {
                    let order = number("order").map_or(u64::MAX - 1, |o| o.max(0.0) as u64);
                    if best.is_none_or(|(o, _, _)| order < o) {
                        best = Some((order, w, number("scoreLead")));
                    }
                }
            }
            "rootInfo" => {
                root_visits = number("visits").filter(|v| *v >= 0.0).map(|v| v as u64);
            }
            _ => {}
        }
        i = end;
    }
    let (_, winrate, score_lead) = best?;
    Some(Report {
        winrate,
        score_lead,
        visits: root_visits.unwrap_or(visits_sum),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leela_zero_and_katago_lines() {
        let lz = "info move D4 visits 10 winrate 4656 prior 839 lcb 4640 order 1 pv D4 Q16 \
                  info move Q4 visits 30 winrate 5100 prior 800 lcb 5000 order 0 pv Q4";
        assert_eq!(
            parse_report(lz, Dialect::LeelaZero),
            Some(Report {
                winrate: 0.51,
                score_lead: None,
                visits: 40
            })
        );
        let kata = "info move E5 visits 7 edgeVisits 7 utility -0.1 winrate 0.25 scoreMean -3 \
                    scoreLead -2.5 order 0 pv E5 C3 info move pass visits 1 winrate 0.1 order 1 \
                    pv pass rootInfo visits 9 winrate 0.24";
        let r = parse_report(kata, Dialect::KataGo).unwrap();
        assert_eq!((r.winrate, r.score_lead, r.visits), (0.25, Some(-2.5), 9));
    }

    #[test]
    fn lines_without_a_usable_group_are_none() {
        for line in [
            "",
            "ownership 0.1 0.2",
            "info move D4 visits 3",
            "info move D4 visits x winrate 2.5",
            "info winrate",
        ] {
            assert_eq!(parse_report(line, Dialect::KataGo), None, "{line}");
        }
        // A pv that happens to hold a key's name does not confuse the pairs.
        let r = parse_report("info move D4 winrate 0.6 pv D4 winrate", Dialect::KataGo);
        assert_eq!(r.map(|r| r.winrate), Some(0.6));
    }
}
