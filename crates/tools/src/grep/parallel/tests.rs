use super::*;

fn inputs(n: usize, workers: usize) -> Inputs<'static> {
    let entries = (0..n).map(|i| Entry::Input(Input::Path(format!("f{i}").into()), true, None));
    Inputs::new(Box::new(entries), workers)
}

#[test]
fn blocks_in_walk_order_then_the_back_of_the_longest_queue() {
    let (tx, rx) = channel();
    let (inputs, shared) = (inputs(2 * BLOCK + 5, 3), Shared::new(3));
    let next = |w: usize| inputs.next(w, &shared, &tx).map(|(i, ..)| i);
    // Worker 0 lists the first block and takes its first input; worker 1 the next block;
    // worker 2 the last five.
    assert_eq!(next(0), Some(0));
    assert_eq!(next(1), Some(BLOCK));
    assert_eq!(next(2), Some(2 * BLOCK));
    assert_eq!(next(0), Some(1));
    // Worker 2 finishes its five; the walk is over: it takes from the back of the
    // longest queue (worker 1's: BLOCK - 1 left; worker 0's: BLOCK - 2), then of the
    // longest again.
    for i in 1..5 {
        assert_eq!(next(2), Some(2 * BLOCK + i));
    }
    assert!(matches!(rx.try_recv(), Ok(Msg::Walked(n)) if n == 2 * BLOCK + 5));
    assert_eq!(next(2), Some(2 * BLOCK - 1));
    // Worker 1 takes two more of its own: worker 0's queue is now the longest.
    assert_eq!(next(1), Some(BLOCK + 1));
    assert_eq!(next(1), Some(BLOCK + 2));
    assert_eq!(next(2), Some(BLOCK - 1));
    // Every input is given once.
    let mut seen: Vec<usize> = [0, BLOCK, 2 * BLOCK, 1, 2 * BLOCK - 1, BLOCK - 1]
        .into_iter()
        .chain([BLOCK + 1, BLOCK + 2])
        .chain((1..5).map(|i| 2 * BLOCK + i))
        .collect();
    for w in [1, 0, 2, 1, 0, 2].into_iter().cycle() {
        match next(w) {
            Some(i) => seen.push(i),
            None => break,
        }
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..2 * BLOCK + 5).collect::<Vec<_>>());
    assert_eq!(next(0), None);
}

#[test]
fn nothing_after_the_run_ended() {
    let (tx, _rx) = channel();
    let (inputs, shared) = (inputs(10, 2), Shared::new(2));
    assert_eq!(inputs.next(0, &shared, &tx).map(|(i, ..)| i), Some(0));
    shared.end();
    assert!(inputs.next(1, &shared, &tx).is_none());
}
