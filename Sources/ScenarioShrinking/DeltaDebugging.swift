import ScenarioEngine

/// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
/// 2002): the smallest part of a list that still fails, found by removing ever smaller chunks.
///
/// This is ddmin with complements only: it tries the list without each chunk, halving the chunks
/// when none can go, and ends 1-minimal (no single item can go). It first tries the empty list,
/// since most of what a shrinker offers it (expectations, header members) usually can all go.
enum DeltaDebugging {
    /// The subset of `items`, in their order, that ``firstHolding`` accepted last.
    /// - Parameter firstHolding: given candidate subsets in the order to try them, returns the
    ///   index of the first that still fails the same way, or `nil` (it may try several at
    ///   once, and stop early, which changes nothing but time: the first in order wins).
    static func minimize<Item: Sendable>(_ items: [Item], firstHolding: ([[Item]]) async -> Int?) async -> [Item] {
        guard !items.isEmpty else { return items }
        if await firstHolding([[]]) == 0 { return [] }
        var current = items
        var granularity = 2
        while current.count >= 2 {
            let chunks = split(current, into: granularity)
            let complements = chunks.indices.map { skipped in
                chunks.enumerated().filter { $0.offset != skipped }.flatMap(\.element)
            }
            if let index = await firstHolding(complements) {
                current = complements[index]
                granularity = max(granularity - 1, 2)
                continue
            }
            if granularity >= current.count { break }
            granularity = min(current.count, granularity * 2)
        }
        return current
    }

    /// `items` in `count` chunks of nearly equal size, in order.
    static func split<Item>(_ items: [Item], into count: Int) -> [[Item]] {
        let count = max(1, min(count, items.count))
        var chunks: [[Item]] = []
        var start = 0
        for chunk in 0..<count {
            let end = start + (items.count - start) / (count - chunk)
            chunks.append(Array(items[start..<end]))
            start = end
        }
        return chunks
    }
}
