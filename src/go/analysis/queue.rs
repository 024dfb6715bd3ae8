//! The positions waiting to be analysed and those being analysed: a priority queue the
//! workers take from (the highest `priority` first, then the earliest), and the open jobs
//! that `terminate` finds by their query's id and turn.
//!
//! A job's status is KataGo's: queued, then running once a worker takes it, or terminated
//! at any time. Whoever moves it out of the queue owns its answer: a worker that starts it
//! writes its analysis (partial if it is terminated while running), `terminate` writes the
//! `noResults` answer of a job still queued, and a worker that later pops it skips it.

use std::cmp::Ordering as Order;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::query::Query;

const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const TERMINATED: u8 = 2;

/// A job's status, shared by the queue, its worker and `terminate`.
#[derive(Debug, Default)]
pub struct Status(AtomicU8);

impl Status {
    /// Whether the job was terminated (its search stops when it sees this).
    pub fn terminated(&self) -> bool {
        self.0.load(Ordering::Acquire) == TERMINATED
    }

    /// Claims a queued job for a worker: false if it was terminated first.
    fn start(&self) -> bool {
        self.0
            .compare_exchange(QUEUED, RUNNING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Terminates the job: true if it was still queued (nobody else will answer it).
    fn terminate(&self) -> bool {
        self.0.swap(TERMINATED, Ordering::AcqRel) == QUEUED
    }
}

/// One position of a query to analyse.
#[derive(Debug)]
pub struct Job {
    pub query: Arc<Query>,
    /// Its index in `query.turns`.
    pub turn: usize,
    pub status: Arc<Status>,
    /// The order of arrival: ties of priority go to the earliest.
    pub seq: u64,
    priority: i64,
}

impl PartialEq for Job {
    fn eq(&self, other: &Job) -> bool {
        self.seq == other.seq
    }
}

impl Eq for Job {}

impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Job) -> Option<Order> {
        Some(self.cmp(other))
    }
}

impl Ord for Job {
    /// The job to run first is the greatest.
    fn cmp(&self, other: &Job) -> Order {
        self.priority
            .cmp(&other.priority)
            .then(other.seq.cmp(&self.seq))
    }
}

/// A job as `terminate` finds it.
#[derive(Debug)]
struct Open {
    id: String,
    turn_number: usize,
    status: Arc<Status>,
}

#[derive(Debug, Default)]
struct Waiting {
    heap: BinaryHeap<Job>,
    /// No more jobs will come: workers stop once the heap is empty.
    closed: bool,
    next_seq: u64,
}

/// The queue and the open jobs.
#[derive(Debug, Default)]
pub struct Queue {
    waiting: Mutex<Waiting>,
    ready: Condvar,
    open: Mutex<BTreeMap<u64, Open>>,
}

/// The lock's data even if a thread panicked holding it: every change under these locks
/// leaves the data whole, so it is still good to use.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Which open jobs a `terminate` means.
pub struct Target<'a> {
    /// `None`: every query (`terminate_all`).
    pub id: Option<&'a str>,
    /// `None`: every turn.
    pub turns: Option<&'a [i64]>,
}

impl Queue {
    /// Queues every position of `query`.
    pub fn push(&self, query: Query) {
        let query = Arc::new(query);
        let mut waiting = lock(&self.waiting);
        let mut open = lock(&self.open);
        for (turn, t) in query.turns.iter().enumerate() {
            let seq = waiting.next_seq;
            waiting.next_seq += 1;
            let status = Arc::new(Status::default());
            open.insert(
                seq,
                Open {
                    id: query.id.clone(),
                    turn_number: t.number,
                    status: Arc::clone(&status),
                },
            );
            waiting.heap.push(Job {
                query: Arc::clone(&query),
                turn,
                status,
                seq,
                priority: t.priority,
            });
        }
        drop(open);
        drop(waiting);
        self.ready.notify_all();
    }

    /// The next job a worker should run, waiting for one; `None` once the queue is closed
    /// and empty. Jobs terminated while queued are passed over.
    pub fn next(&self) -> Option<Job> {
        let mut waiting = lock(&self.waiting);
        loop {
            while let Some(job) = waiting.heap.pop() {
                if job.status.start() {
                    return Some(job);
                }
                self.close_job(job.seq);
            }
            if waiting.closed {
                return None;
            }
            waiting = self
                .ready
                .wait(waiting)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// A job is over: `terminate` no longer finds it.
    pub fn close_job(&self, seq: u64) {
        lock(&self.open).remove(&seq);
    }

    /// No more jobs will be pushed.
    pub fn close(&self) {
        lock(&self.waiting).closed = true;
        self.ready.notify_all();
    }

    /// Terminates the open jobs `target` means, returning the query id and turn number of
    /// each that was still queued (whose `noResults` answer is the caller's to write).
    pub fn terminate(&self, target: &Target<'_>) -> Vec<(String, usize)> {
        let open = lock(&self.open);
        open.values()
            .filter(|o| target.id.is_none_or(|id| o.id == id))
            .filter(|o| {
                target
                    .turns
                    .is_none_or(|turns| turns.contains(&(o.turn_number as i64)))
            })
            .filter(|o| o.status.terminate())
            .map(|o| (o.id.clone(), o.turn_number))
            .collect()
    }
}
