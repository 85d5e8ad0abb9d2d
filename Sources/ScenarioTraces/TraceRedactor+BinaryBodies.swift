import Foundation
import ScenarioEngine

/// Bodies that are not text: placeholders of a secret's own length, and the bodies whose
/// structure could not be read, kept (and said) or left out.
extension TraceRedactor {
    /// A body that is not text and whose structure could not be read.
    struct UnreadBody {
        /// The entry it is in.
        var entry: Int
        /// Whether it is the request's body (else the response's).
        var request: Bool
        /// Its media type, `""` when none was said.
        var type: String
    }

    /// `application/x-msgpack` of `application/x-msgpack; charset=binary`, lower case; `""` for none.
    static func mediaType(_ contentType: String?) -> String {
        guard let contentType else { return "" }
        return (contentType.split(separator: ";").first.map(String.init) ?? contentType).trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Leaves `body` out of `log`: the request or the response keeps everything but its bytes.
    static func drop(_ body: UnreadBody, from log: inout HARLog) {
        if body.request {
            log.entries[body.entry].request.body = nil
        } else {
            log.entries[body.entry].response?.body = Data()
        }
    }

    /// The places in `secrets` of those that stand in a body of `log` that is not text.
    static func inBinaryBodies(_ secrets: [RedactionPolicy.Finding], of log: HARLog, policy: RedactionPolicy) -> Set<Int> {
        var probe: SecretMasker?
        var found: Set<Int> = []
        for entry in log.entries {
            var bodies: [Data] = []
            if let body = entry.request.body, BodyKind.isBinary(body.utf8, contentType: entry.request.mimeType) {
                bodies.append(Data(body.utf8))
            }
            if let response = entry.response, BodyKind.isBinary(response.body, contentType: response.mimeType) {
                bodies.append(response.body)
            }
            for body in bodies {
                // Made only for a capture that has such a body: most have none.
                let masker = probe ?? SecretMasker(secrets.map { ($0.value, "") }, policy: policy)
                probe = masker
                found.formUnion(masker.sources(inBinary: body))
            }
        }
        return found
    }

    /// The placeholder of the `number`th secret of `kind`, `length` bytes long:
    /// `redacted-token-1` filled with `x` (`redacted-token-1xxxx`), or for a shorter secret
    /// `r-token-1`, `r-t-1`, `r-1`, cut to the length when even that is longer (4 bytes at least).
    static func placeholder(_ kind: Kind, _ number: Int, length: Int) -> String {
        let forms = [
            "redacted-\(kind.rawValue)-\(number)", "r-\(kind.rawValue)-\(number)", "r-\(kind.rawValue.prefix(1))-\(number)", "r-\(number)",
        ]
        let form = forms.first { $0.utf8.count <= length } ?? String("r-\(number)".prefix(length))
        return form + String(repeating: "x", count: max(0, length - form.utf8.count))
    }

    /// Whether `value` is a placeholder this redactor writes (`redacted-token-1`, `r-t-2xx`): a
    /// trace redacted again keeps it as it is.
    static func isPlaceholder(_ value: String) -> Bool {
        if value.hasPrefix("redacted-") { return true }
        guard value.hasPrefix("r-") else { return false }
        var rest = value.dropFirst(2)
        while rest.last == "x" { rest = rest.dropLast() }
        let number = rest.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !number.isEmpty else { return false }
        let kind = rest.dropLast(number.count)
        return kind.isEmpty || (kind.hasSuffix("-") && kind.dropLast().allSatisfy { $0.isASCII && ($0.isLowercase || $0 == "-") })
    }
}

extension TraceRedactor.Report {
    /// `2 binary bodies it could not read (1 image/png, 1 of no type)`, or `nil` when there were none.
    package var unreadSummary: String? { Self.summary(unreadBodies) }

    /// The same for the bodies left out.
    package var droppedSummary: String? { Self.summary(droppedBodies) }

    private static func summary(_ bodies: [String: Int]) -> String? {
        let total = bodies.values.reduce(0, +)
        guard total > 0 else { return nil }
        let parts = bodies.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.isEmpty ? "of no type" : $0.key)" }
        return "\(total) binary bod\(total == 1 ? "y" : "ies") it could not read (\(parts.joined(separator: ", ")))"
    }
}
