import Foundation
import HTTPCore

/// What the backend logs: the requests, and the transcript, where each request, answer and hold
/// is one line, whole (lines are cut for reports only after secrets are masked).
extension ScriptedBackend {
    /// One request the stack sent.
    public struct LoggedRequest: Sendable {
        /// 1-based position in the log.
        public var number: Int
        /// The request.
        public var request: HTTPRequest
        /// The exchange that served it, `nil` when none matched.
        public var exchangeID: String?
        /// When it arrived.
        public var arrivedAt: VirtualClock.Instant
        /// Its position among requests and answers (see ``RunRecord``).
        public var order = 0
    }

    /// The body unmatched requests get, so the stack can go on while the scenario fails.
    static let unmatchedBody = Data(
        #"{"success":false,"error_code":"NOT_FOUND","errors":[{"field":"scenario","message":"no scripted exchange matches this request"}]}"#
            .utf8)

    static func describe(_ release: ReleaseCondition) -> String {
        switch release {
        case .whenPending(let want): "released when \(want) are pending"
        case .atStep(let step): "released at step '\(step)'"
        }
    }

    static func describe(_ request: HTTPRequest) -> String {
        var line = "\(request.method) \(request.target)"
        for field in request.headers { line += "  \(field.name): \(field.value)" }
        return line + describeBody(request.body ?? Data())
    }

    /// The headers of an answer that change what a client does next (where a redirect leads,
    /// how long to wait, what to keep), then its body.
    static func describe(_ response: HTTPResponse) -> String {
        var line = ""
        for field in response.headers where answerHeadersShown.contains(where: { field.name.caseInsensitiveCompare($0) == .orderedSame }) {
            line += "  \(field.name): \(field.value)"
        }
        return line + describeBody(response.body)
    }

    private static let answerHeadersShown = ["Location", "Retry-After", "Set-Cookie", "WWW-Authenticate"]

    /// A body on one line: compact JSON when it is JSON, else text. Whole: lines are cut for
    /// reports only after secrets are masked, so no part of a long token survives a cut.
    static func describeBody(_ body: Data) -> String {
        guard !body.isEmpty else { return "" }
        if let json = JSONValue.parse(body) { return "  " + json.compactText }  // compact JSON holds no line break
        let text = String(decoding: body, as: UTF8.self)
        return "  " + (text.utf8.contains(UInt8(ascii: "\n")) ? text.replacingOccurrences(of: "\n", with: "\\n") : text)
    }
}

/// The run's exchange-by-exchange account as the backend writes it, under its lock: each line
/// stamped with the virtual time it was written at.
struct BackendTranscript {
    let clock: VirtualClock
    private(set) var lines: [String] = []
    /// The line count up to and including the first unmatched request, if any.
    private(set) var firstDivergence: Int?
    /// The last stamp made: many lines share one virtual instant.
    private var lastStamp: (at: Duration, text: String)?
    private var saidRunOver = false

    init(clock: VirtualClock) { self.clock = clock }

    /// Adds `line` after `[15.250s] `, the virtual time now.
    mutating func add(_ line: String) {
        let now = clock.now.offset
        if lastStamp?.at != now { lastStamp = (now, "[\(VirtualClock.Instant.format(now))] ") }
        lines.append((lastStamp?.text ?? "") + line)
    }

    /// The line just added is the first unmatched request, unless one came before.
    mutating func markDivergence() {
        if firstDivergence == nil { firstDivergence = lines.count }
    }

    /// Says once that the run is over: the lines after it, the app sent while it was taken down.
    mutating func markRunOver() {
        guard !saidRunOver else { return }
        saidRunOver = true
        add("(the run is over: what follows, the app sent while it was taken down)")
    }
}
