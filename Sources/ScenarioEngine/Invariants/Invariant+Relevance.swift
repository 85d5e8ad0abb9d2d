import Foundation
import HTTPCore

/// Which requests a traffic invariant reads: a checker that judges a growing window of live
/// traffic again and again decides this once per finished request and checks each invariant
/// over the few requests it concerns, not over all of them.
extension Invariant {
    /// What a request (with its answer so far) is to an invariant, in a record of traffic.
    package enum Concern: Sendable, Hashable {
        /// It takes no part: a record without it breaks the invariant the same way.
        case none
        /// It can take part in breaking it.
        case takesPart
        /// It takes part, and it is what the invariant can break only after: a value replaced, a
        /// refusal, a wait asked for, a session ended. A record with no such request breaks it not at all.
        case arms
    }

    /// Whether `request` can take part in breaking this invariant (see ``concern(_:)``).
    package func mayConcern(_ request: RunRecord.Request) -> Bool { concern(request) != .none }

    /// What `request` (with its answer so far) is to this invariant: a record without the requests
    /// of no concern breaks it the same way, naming the same requests (numbered within that
    /// record), and a record without a request that arms it does not break it. Decided by what
    /// each check reads of a request and of its answer, in `InvariantChecker`'s files beside this
    /// one; `.arms` for the checks that need the app, which a traffic judge does not run.
    package func concern(_ request: RunRecord.Request) -> Concern {
        let sent = request.request
        switch rule {
        case .neverSentTwice(let requests, let value):
            return InvariantChecker.matches(requests, sent) && value.read(from: sent) != nil ? .arms : .none
        case .notAfterReplaced(let value, let replacedBy, let answerPath):
            // An answer that hands out a new value arms it; a request that carries one takes part.
            if let answer = request.answer, let status = answer.status, StatusSet.success.contains(status),
                InvariantChecker.matches(replacedBy, sent), ValueReference.text(JSONValue.value(at: answerPath, inBody: answer.body)) != nil
            {
                return .arms
            }
            return value.read(from: sent) != nil ? .takesPart : .none
        case .refreshesOnlyForCurrent(let value, let refresh, let answerPath, let after):
            // A refresh whose answer replaced the value arms it; other refreshes, and refusals of
            // requests that carried the value, take part.
            if refresh.matches(MatchCandidate(sent)) {
                guard let answer = request.answer, let status = answer.status, StatusSet.success.contains(status),
                    ValueReference.text(JSONValue.value(at: answerPath, inBody: answer.body)) != nil
                else { return .takesPart }
                return .arms
            }
            guard let status = request.answer?.status, after.contains(status) else { return .none }
            return value.read(from: sent) != nil ? .takesPart : .none
        case .noneAfter(let after, let until, let requests, let carrying):
            if after.contains(where: { Self.happens($0, request) }) { return .arms }
            if InvariantChecker.matches(requests, sent), carrying.map({ $0.read(from: sent) != nil }) ?? true { return .takesPart }
            return until.contains { Self.happens($0, request) } ? .takesPart : .none
        case .maxInFlight(let requests, _):
            return InvariantChecker.matches(requests, sent) ? .arms : .none
        case .maxRepeats(let requests, _, let after):
            // A refusal arms it; every request it selects may be the copy that repeats one.
            guard InvariantChecker.matches(requests, sent) else { return .none }
            return request.answer?.status.map(after.contains) == true ? .arms : .takesPart
        case .respectsRetryAfter(let requests, let statuses):
            // A wait asked for arms it; a request that may go where one was asked for takes part.
            if let status = request.answer?.status, statuses.contains(status), request.answer?.headers[HTTPFields.Name.retryAfter] != nil {
                return .arms
            }
            return InvariantChecker.matches(requests, sent) ? .takesPart : .none
        case .reportsRetryAfter, .alertAtMost, .repeatsWithinSession, .timeline:
            return .arms
        }
    }

    /// Whether the request or its answer is an event `pattern` waits for.
    private static func happens(_ pattern: EventPattern, _ request: RunRecord.Request) -> Bool {
        switch pattern {
        case .sent(let matcher): matcher.matches(MatchCandidate(request.request))
        case .answered(let matcher): request.answer.map { matcher.matches(request.request, $0) } ?? false
        }
    }
}
