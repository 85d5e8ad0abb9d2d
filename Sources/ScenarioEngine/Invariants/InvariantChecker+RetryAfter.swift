import Foundation
import HTTPCore

/// Checks on honouring and reporting `Retry-After`.
extension InvariantChecker {
    static func respectsRetryAfter(
        _ events: Events, _ clockStart: Date, _ requests: RequestMatcher?, _ statuses: StatusSet, _ fail: Fail
    ) {
        var closed: [String: (until: Duration, by: Int, header: String)] = [:]
        for event in events.all {
            switch event {
            case .sent(let request):
                let endpoint = "\(request.request.method) \(request.request.path)"
                guard matches(requests, request.request), let wait = closed[endpoint], request.at < wait.until else { continue }
                fail(
                    "#\(request.number) \(endpoint) was sent at \(VirtualClock.Instant(offset: request.at)), before the wait the answer to #\(wait.by) asked for (Retry-After: \(wait.header)) ended at \(VirtualClock.Instant(offset: wait.until))",
                    [wait.by, request.number], [])
            case .answered(let request, let answer):
                guard let status = answer.status, statuses.contains(status), let header = answer.headers[HTTPFields.Name.retryAfter],
                    let wait = RetryAfterValue.wait(header, at: clockStart.addingTimeInterval(answer.at.seconds))
                else { continue }
                closed["\(request.request.method) \(request.request.path)"] = (answer.at + wait, request.number, header)
            }
        }
    }

    static func reportsRetryAfter(
        _ record: RunRecord, _ events: Events, _ statuses: StatusSet, _ field: String, _ fail: Fail
    ) {
        for action in record.actions {
            guard case .error(let error)? = action.result, let ended = action.ended else { continue }
            var last: (request: RunRecord.Request, answer: RunRecord.Answer)?
            for event in events.all {
                guard case .answered(let request, let answer) = event, answer.order > action.began, answer.order <= ended,
                    let status = answer.status, statuses.contains(status)
                else { continue }
                last = (request, answer)
            }
            guard let last, let header = last.answer.headers[HTTPFields.Name.retryAfter],
                let wait = RetryAfterValue.wait(header, at: record.clockStart.addingTimeInterval(last.answer.at.seconds))
            else { continue }
            let code = error["code"]?.stringValue ?? "?"
            guard let reported = error[field]?.numberValue else {
                fail(
                    "'\(action.name)' failed (\(code)) after the \(last.answer.status ?? 0) to #\(last.request.number) asked to wait \(format(wait)) (Retry-After: \(header)), but its error has no '\(field)'",
                    [last.request.number], [])
                continue
            }
            if abs(reported - wait.seconds) > 0.001 {
                fail(
                    "'\(action.name)' failed (\(code)) with \(field) \(JSONValue.number(reported).compactText) s after the \(last.answer.status ?? 0) to #\(last.request.number) asked to wait \(format(wait)) (Retry-After: \(header))",
                    [last.request.number], [])
            }
        }
    }
}

/// `Retry-After` as RFC 9110 section 10.2.3 reads it: delta-seconds, or an HTTP-date (IMF-fixdate,
/// RFC 850 or asctime) whose wait is measured from the answer's wall time, rounded up to whole seconds.
package enum RetryAfterValue {
    package static func wait(_ header: String, at now: Date) -> Duration? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.allSatisfy({ ("0"..."9").contains($0) }) { return .seconds(Int(text) ?? Int.max) }
        for formatter in httpDates {
            if let date = formatter.date(from: text) {
                let interval = date.timeIntervalSince(now)
                return interval > 0 ? .seconds(interval.rounded(.up)) : .zero
            }
        }
        return nil
    }

    /// IMF-fixdate, RFC 850 and asctime, made once (formatters are dear to make; parsing is
    /// thread-safe).
    #if canImport(Darwin)
        // Apple's DateFormatter is not Sendable (Linux's is, and warns of the attribute there).
        nonisolated(unsafe) private static let httpDates = makeHTTPDateFormatters()
    #else
        private static let httpDates = makeHTTPDateFormatters()
    #endif

    private static func makeHTTPDateFormatters() -> [DateFormatter] {
        [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        ].map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            return formatter
        }
    }
}
