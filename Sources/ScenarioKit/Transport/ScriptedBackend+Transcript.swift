import Foundation
import HTTPCore

/// How the transcript writes requests, answers and holds: one line each, whole (lines are cut
/// for reports only after secrets are masked).
extension ScriptedBackend {
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
