import Foundation
import ScenarioEngine

/// What a draft holds so that its replay, and a stack with the fix, meet the answers they need:
/// a refused call's last success as a fallback, and calls that overlapped but started apart kept
/// in their order and at their times.
extension TraceImporter {
    /// For each call the stack repeats by itself or that was refused (401, 429, 503), its last
    /// success in the trace, as an optional answer after all the others, to any credential and
    /// any number of times: a run whose concurrent calls take their turns in another order, and
    /// a fixed stack that retries what the bug gave up on, still find the answer the backend
    /// gives that call.
    func fallbackDocuments(_ items: [Item], exchanges: [ExchangePlan], summary: Summary) -> [JSONValue] {
        // What the summary counts of these bodies, it counted for their exchanges already.
        var summary = summary
        var repeated = Set<String>()
        for item in items where item.role == .retry || [401, 429, 503].contains(item.entry.response?.status ?? 0) {
            repeated.insert(item.callKey)
        }
        var lastSuccess: [String: Int] = [:]
        var order: [String] = []
        for (position, item) in items.enumerated() where repeated.contains(item.callKey) {
            guard let status = item.entry.response?.status, (200...299).contains(status) else { continue }
            if lastSuccess[item.callKey] == nil { order.append(item.callKey) }
            lastSuccess[item.callKey] = position
        }
        var used = Set(exchanges.map(\.id))
        return order.compactMap { key in
            guard let position = lastSuccess[key], let response = items[position].entry.response else { return nil }
            let item = items[position]
            guard case .object(var matcher) = requestMatcher(item, summary: &summary) else { return nil }
            matcher[K.headers] = nil
            var id = "\(item.entry.request.method.lowercased())-\(Self.slug(of: item.path))-any"
            var number = 2
            while !used.insert(id).inserted {
                id = "\(item.entry.request.method.lowercased())-\(Self.slug(of: item.path))-any-\(number)"
                number += 1
            }
            return .object([
                K.id: .string(id), K.request: .object(matcher), K.response: responseDocument(response, summary: &summary),
                K.times: .string(K.unlimited), K.optional: true,
            ])
        }
    }

    /// Calls that were on their way together but started apart (a sign-out a second after a
    /// message was sent, while it still travelled), in their order and at their times: each but
    /// the last started in the background, the time between them advanced, the last done, then
    /// the others awaited. `nil` for calls started together (a group runs them at once, in any
    /// order).
    func staggered(
        _ group: [Int], items: [Item], calls: [(action: String, arguments: JSONValue)], outcomes: [JSONValue?], number: Int
    ) -> [JSONValue]? {
        let starts = group.map { items[$0].entry.started }
        guard let first = starts.first, let last = starts.last, last.timeIntervalSince(first) * 1000 >= Self.togetherWithin else {
            return nil
        }
        var steps: [JSONValue] = []
        var handles: [(handle: String, outcome: JSONValue?)] = []
        for index in group.indices {
            if index > 0 {
                let gap = Int((starts[index].timeIntervalSince(starts[index - 1]) * 1000).rounded(.down))
                if gap >= 1 { steps.append([K.advance: .string(Self.durationText(milliseconds: gap))]) }
            }
            if index == group.count - 1 {
                var step: JSONObject = [K.do: .string(calls[index].action), K.with: calls[index].arguments]
                if let outcome = outcomes[index] { step[K.expect] = outcome }
                steps.append(.object(step))
            } else {
                let handle = "call-\(number + 1)-\(index + 1)"
                steps.append([K.start: .string(calls[index].action), K.with: calls[index].arguments, K.as: .string(handle)])
                handles.append((handle, outcomes[index]))
            }
        }
        for (handle, outcome) in handles {
            var step: JSONObject = [K.await: .string(handle)]
            if let outcome { step[K.expect] = outcome }
            steps.append(.object(step))
        }
        return steps
    }

    /// Calls started within this many milliseconds of each other were started together.
    static let togetherWithin = 100.0
}

private typealias K = ScenarioKey
