import Foundation
import HTTPCore

/// Which requests a traffic invariant reads: a checker that judges a growing window of live
/// traffic again and again decides this once per finished request and checks each invariant
/// over the few requests it concerns, not over all of them.
extension Invariant {
    /// Whether `request` (with its answer so far) can take part in breaking this invariant: a
    /// record without the requests for which this is false breaks it the same way, naming the
    /// same requests (numbered within that record). Decided by what each check reads of a
    /// request and of its answer, in `InvariantChecker`'s files beside this one; `true` for the
    /// checks that need the app, which a traffic judge does not run.
    package func mayConcern(_ request: RunRecord.Request) -> Bool {
        let sent = request.request
        switch rule {
        case .neverSentTwice(let requests, let value):
            return InvariantChecker.matches(requests, sent) && value.read(from: sent) != nil
        case .notAfterReplaced(let value, let replacedBy, let answerPath):
            // A value carried, or an answer that hands out a new one.
            if value.read(from: sent) != nil { return true }
            guard let answer = request.answer, let status = answer.status, StatusSet.success.contains(status),
                InvariantChecker.matches(replacedBy, sent)
            else { return false }
            return ValueReference.text(JSONValue.value(at: answerPath, inBody: answer.body)) != nil
        case .refreshesOnlyForCurrent(let value, let refresh, _, let after):
            // A refresh, or a refusal of a request that carried the value.
            if refresh.matches(MatchCandidate(sent)) { return true }
            guard let status = request.answer?.status, after.contains(status) else { return false }
            return value.read(from: sent) != nil
        case .noneAfter(let after, let until, let requests, let carrying):
            if InvariantChecker.matches(requests, sent), carrying.map({ $0.read(from: sent) != nil }) ?? true { return true }
            return (after + until).contains { pattern in
                switch pattern {
                case .sent(let matcher): matcher.matches(MatchCandidate(sent))
                case .answered(let matcher): request.answer.map { matcher.matches(sent, $0) } ?? false
                }
            }
        case .maxInFlight(let requests, _), .maxRepeats(let requests, _, _):
            return InvariantChecker.matches(requests, sent)
        case .respectsRetryAfter(let requests, let statuses):
            // A wait asked for, or a request that may go where one was asked for.
            if let status = request.answer?.status, statuses.contains(status), request.answer?.headers[HTTPFields.Name.retryAfter] != nil {
                return true
            }
            return InvariantChecker.matches(requests, sent)
        case .reportsRetryAfter, .alertAtMost, .repeatsWithinSession, .timeline:
            return true
        }
    }
}
