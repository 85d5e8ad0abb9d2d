import Foundation
import HTTPCore

/// A run event as a report shows it: one line, its secrets masked and its control characters
/// escaped. Results carry these; every report (console, JUnit, JSON, HTML) prints them.
package struct TranscriptEntry: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Hashable, Codable {
        case request, answer, unmatched, held, released, late, failed, note
    }

    package var kind: Kind
    /// The request it concerns (`#3`), if any.
    package var number: Int?
    /// Virtual time, as `15.250s`.
    package var time: String
    /// What happened, after the number and its mark (masked, escaped).
    package var text: String

    /// The whole line: `[15.250s] #3 → GET /feed  Authorization: Bearer ‹redacted#1›`.
    package var line: String {
        let head = time.isEmpty ? "" : "[\(time)] "
        guard let number else { return head + text }
        return head + "#\(number) \(kind.mark) \(text)"
    }
}

extension TranscriptEntry.Kind {
    /// The mark between a request's number and the text.
    var mark: String {
        switch self {
        case .request: "→"
        case .answer: "←"
        case .unmatched, .failed: "✗"
        case .held: "⏸"
        case .released: "▶"
        case .late: "⏱"
        case .note: "·"
        }
    }
}

/// Turns a run's events into transcript text. The one place that says how an event reads.
package enum Transcript {
    /// How `event` reads, unmasked but for the bytes of a body that is not text, which are shown
    /// as their size, type and the hash of what `masking` makes of them; `nil` for an event that
    /// has no line of its own (the 404 an unmatched request gets: its `unmatched` line says so).
    static func entry(_ event: RunEvent, in record: RunRecord, masking: SecretRedactor? = nil) -> (
        kind: TranscriptEntry.Kind, number: Int?, text: String
    )? {
        let number = event.number
        let via = event.exchange ?? ""
        switch event.kind {
        case .sent:
            guard let request = record.request(number) else { return nil }
            return (.request, number, describe(request.request, masking: masking))
        case .unmatched(let near):
            return (.unmatched, number, "no exchange matches; answered 404\(near)")
        case .held(let release):
            return (.held, number, "held by '\(via)' (\(describe(release)))")
        case .released:
            return (.released, number, "released")
        case .late(let delay):
            return (.late, number, "the schedule delivers its answer \(VirtualClock.Instant.format(delay)) late")
        case .answered:
            guard event.exchange != nil, let answer = record.answer(to: number) else { return nil }
            guard let status = answer.status else { return (.answer, number, "fault \(answer.fault ?? "") via \(via)") }
            let response = HTTPResponse(status: HTTPStatus(code: status), headers: answer.headers, body: answer.body)
            return (.answer, number, "\(response.status) via \(via)\(describe(response, masking: masking))")
        case .timedOut(let waited):
            let served = event.exchange.map { " ('\($0)' answers later)" } ?? ""
            return (.failed, number, "timed out by the client after \(VirtualClock.Instant.format(waited)) (its request timeout)\(served)")
        case .cancelledByApp:
            return (.failed, number, "cancelled by the app")
        case .unansweredAtEnd:
            return (.failed, number, "unanswered when the run ended")
        case .refusedAfterEnd:
            return (.failed, number, "cancelled: the run is over")
        case .runOver:
            return (.note, nil, "(the run is over: what follows, the app sent while it was taken down)")
        case .escaped(let message):
            return (.note, nil, "escaped: \(message)")
        }
    }

    /// The line `event` reads as, unmasked (for messages that quote it; masked with the rest).
    package static func line(_ event: RunEvent, in record: RunRecord, masking: SecretRedactor? = nil) -> String {
        guard let (kind, number, text) = entry(event, in: record, masking: masking) else { return "" }
        return TranscriptEntry(kind: kind, number: number, time: VirtualClock.Instant.format(event.at), text: text).line
    }

    static func describe(_ release: ReleaseCondition) -> String {
        switch release {
        case .whenPending(let want): "released when \(want) are pending"
        case .atStep(let step): "released at step '\(step)'"
        }
    }

    static func describe(_ request: HTTPRequest, masking: SecretRedactor? = nil) -> String {
        var line = "\(request.method) \(request.target)"
        for field in request.headers { line += "  \(field.name): \(field.value)" }
        return line + describeBody(request.body ?? Data(), contentType: request.headers["Content-Type"], masking: masking)
    }

    /// The headers of an answer that change what a client does next (where a redirect leads,
    /// how long to wait, what to keep), then its body.
    static func describe(_ response: HTTPResponse, masking: SecretRedactor? = nil) -> String {
        var line = ""
        for field in response.headers where answerHeadersShown.contains(where: { field.name.caseInsensitiveCompare($0) == .orderedSame }) {
            line += "  \(field.name): \(field.value)"
        }
        return line + describeBody(response.body, contentType: response.headers["Content-Type"], masking: masking)
    }

    private static let answerHeadersShown = ["Location", "Retry-After", "Set-Cookie", "WWW-Authenticate"]

    /// A body on one line: compact JSON when it is JSON, text when it is text, and otherwise
    /// never its bytes but their size, type and hash (``BodyKind``). Whole: lines are cut for
    /// reports only after secrets are masked, so no part of a long token survives a cut.
    static func describeBody(_ body: Data, contentType: String? = nil, masking: SecretRedactor? = nil) -> String {
        guard !body.isEmpty else { return "" }
        if BodyKind.isBinary(body, contentType: contentType) {
            return "  " + BodyKind.summary(of: body, contentType: contentType, hashing: masking.map { Array($0.redact(binary: body)) })
        }
        if let json = JSONValue.parse(body) { return "  " + json.compactText }  // compact JSON holds no line break
        let text = String(decoding: body, as: UTF8.self)
        return "  " + (text.utf8.contains(UInt8(ascii: "\n")) ? text.replacingOccurrences(of: "\n", with: "\\n") : text)
    }
}
