//! `shicho analysis`: KataGo's JSON analysis engine (`docs/Analysis_Engine.md` in KataGo's
//! sources), the protocol KaTrain and other review tools speak. Queries come one JSON
//! object a line on stdin; each position a query asks about is searched by the engine's
//! analysis ([`crate::go::search::Analysis`]) and answered, one JSON object a line on
//! stdout, as its search ends: several positions are searched at once by a pool of
//! workers, the queue ordered by each query's `priority`.
//!
//! The reading order of this room: `query` (a line read into an action or the positions
//! of a query, every error and warning KataGo's), `server` (the loop, the workers, the
//! actions), `answer` (a report as KataGo's JSON).
//!
//! | file | what it holds |
//! |---|---|
//! | `message` | the error and warning lines, KataGo's layout |
//! | `rules` | KataGo's rules names and objects as shicho's [`Rules`](crate::go::rules::Rules) |
//! | `settings` | a query's search and report [`Settings`]: the command line's, then its `overrideSettings` |
//! | `query` | a line read: an action, or a query and its positions built as games |
//! | `queue` | the priority queue of positions, the open jobs and their status (`terminate`) |
//! | `answer` | a search's report as KataGo writes it: `moveInfos`, `rootInfo`, `ownership`, `policy` |
//! | `server` | [`serve`]: the reading loop, the actions, the workers that search and answer |

mod answer;
mod message;
mod query;
mod queue;
mod rules;
mod server;
pub(crate) mod settings;

pub use message::{Message, Severity};
pub use query::{Parsed, Request, UNSUPPORTED_FIELD, parse};
pub use server::{Config, serve};
pub use settings::{MAX_SEARCH_THREADS, MAX_VISITS, Perspective, Settings};
