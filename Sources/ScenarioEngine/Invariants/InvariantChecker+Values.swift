import Foundation
import HTTPCore

/// Checks on values requests carry and on what may be sent after an event.
extension InvariantChecker {
    static func neverSentTwice(
        _ record: RunRecord, _ requests: RequestMatcher?, _ value: ValueReference, _ fail: (String, [Int], [String]) -> Void
    ) {
        var seen: [String: [Int]] = [:]
        var order: [String] = []
        for request in record.requests where matches(requests, request.request) {
            guard let found = value.read(from: request.request) else { continue }
            if seen[found] == nil { order.append(found) }
            seen[found, default: []].append(request.number)
        }
        for found in order {
            guard let numbers = seen[found], numbers.count > 1 else { continue }
            fail("\(numbers.count) requests carry the same \(value) '\(found)': \(list(numbers))", numbers, value.secretParts(of: found))
        }
    }

    static func notAfterReplaced(
        _ events: Events, _ value: ValueReference, _ replacedBy: RequestMatcher?, _ answerPath: String, _ fail: Fail
    ) {
        var known: [String] = []
        var replaced: [String: Int] = [:]
        for event in events.all {
            switch event {
            case .sent(let request):
                guard let found = value.read(from: request.request) else { continue }
                if let by = replaced[found] {
                    fail(
                        "#\(request.number) carries \(value) '\(found)', which the answer to #\(by) had already replaced",
                        [request.number, by], value.secretParts(of: found))
                } else if !known.contains(found) {
                    known.append(found)
                }
            case .answered(let request, let answer):
                guard matches(replacedBy, request.request), let status = answer.status, StatusSet.success.contains(status),
                    let new = ValueReference.text(JSONValue.value(at: answerPath, inBody: answer.body))
                else { continue }
                for old in known where old != new && replaced[old] == nil { replaced[old] = request.number }
                known = [new]
                replaced[new] = nil
            }
        }
    }

    static func refreshesOnlyForCurrent(
        _ events: Events, _ value: ValueReference, _ refresh: RequestMatcher, _ answerPath: String, _ refusals: StatusSet,
        _ fail: Fail
    ) {
        var current: String?  // unknown until a refresh answers: any refusal then counts
        var replacedBy: Int?
        var refusedCurrent = false
        var stale: (request: Int, value: String)?
        for event in events.all {
            switch event {
            case .sent(let request) where matches(refresh, request.request):
                if !refusedCurrent, let stale, let replacedBy {
                    fail(
                        "#\(request.number) \(request.request.method) \(request.request.path) went out for the refusal of #\(stale.request), whose \(value) '\(stale.value)' the answer to #\(replacedBy) had already replaced; retry with the new one instead",
                        [request.number, stale.request, replacedBy], value.secretParts(of: stale.value))
                }
                refusedCurrent = false
                stale = nil
            case .answered(let request, let answer) where matches(refresh, request.request):
                guard let status = answer.status, StatusSet.success.contains(status),
                    let new = ValueReference.text(JSONValue.value(at: answerPath, inBody: answer.body))
                else { continue }
                current = new
                replacedBy = request.number
                refusedCurrent = false
            case .answered(let request, let answer):
                guard let status = answer.status, refusals.contains(status), let carried = value.read(from: request.request) else {
                    continue
                }
                if current == nil || carried == current {
                    refusedCurrent = true
                } else {
                    stale = (request.number, carried)
                }
            case .sent:
                continue
            }
        }
    }

    static func noneAfter(
        _ events: Events, _ after: [EventPattern], _ until: [EventPattern], _ requests: RequestMatcher?, _ carrying: ValueReference?,
        _ fail: Fail
    ) {
        var armedBy: Int?
        var reset = 0
        for event in events.all {
            if case .sent(let request) = event, let by = armedBy, matches(requests, request.request) {
                if let carrying {
                    if let found = carrying.read(from: request.request) {
                        fail(
                            "#\(request.number) \(request.request.method) \(request.request.path) carries \(carrying) after #\(by) ended the session",
                            [request.number, by], carrying.secretParts(of: found))
                    }
                } else {
                    fail(
                        "#\(request.number) \(request.request.method) \(request.request.path) was sent after #\(by)", [request.number, by],
                        [])
                }
            }
            if until.contains(where: { happens($0, event) }) {
                armedBy = nil
                if case .answered(_, let answer) = event {
                    reset = answer.order
                } else if case .sent(let request) = event {
                    reset = request.order
                }
            }
            if armedBy == nil, after.contains(where: { happens($0, event) }) {
                switch event {
                case .sent(let request): armedBy = request.number
                case .answered(let request, _) where request.order > reset: armedBy = request.number
                case .answered: break
                }
            }
        }
    }
}
