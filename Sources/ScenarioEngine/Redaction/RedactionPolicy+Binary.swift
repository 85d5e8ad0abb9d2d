import Foundation

/// Secrets in bodies that are not text: what ``BinaryBodyReader`` reads of their structure, and
/// what their printable runs show.
extension RedactionPolicy {
    /// Secrets in a body that is not text (``BodyKind/isBinary(_:contentType:)``): in a structure
    /// the reader knows, the value of a credential name (a MessagePack map's `access_token`, a
    /// protobuf map entry's `session_token`), everything under `tokens` and the like, and in every
    /// string what any text is looked into for (JWTs, keys by their prefix, JSON or a form it holds);
    /// in bytes it cannot read, the same in each printable run of 16 bytes or more, and a word that
    /// follows a credential name a few framing bytes on. Returns whether the structure was read: a
    /// body that was not is kept unread, its secrets masked only where found so.
    @discardableResult
    package func collect(binary body: Data, contentType: String?, into found: inout Findings) -> Bool {
        let bytes = [UInt8](body.prefix(BinaryBodyReader.maximumBytes))
        guard let read = BinaryBodyReader.read(bytes, contentType: contentType) else {
            collect(runs: bytes, into: &found)
            return false
        }
        // Not the runs too: a length byte that happens to be printable would join the word after
        // it, and masking that would break the framing the structure keeps.
        collect(value: read.value, into: &found)
        return true
    }

    private func collect(value: BinaryBodyReader.Value, into found: inout Findings) {
        switch value {
        case .text(let text):
            collect(text: text, into: &found, depth: 1)
        case .opaque:
            break
        case .map(let members):
            for member in members {
                if case .text(let name) = member.key, isCredentialName(name) {
                    collectSecret(member.value, named: name, into: &found)
                } else {
                    collect(value: member.value, into: &found)
                }
            }
        case .list(let values):
            for (index, element) in values.enumerated() {
                // A name, then its value: a protobuf map entry (key 1, value 2), a list of pairs.
                if case .text(let name) = element, index + 1 < values.count, isCredentialName(name),
                    let secret = values[index + 1].firstText(), !Self.isConstant(secret, under: name)
                {
                    found.add(secret, Self.kind(forName: name))
                }
                collect(value: element, into: &found)
            }
        }
    }

    /// The value of credential name `name`: a string whole, or every string under it.
    private func collectSecret(_ value: BinaryBodyReader.Value, named name: String, into found: inout Findings) {
        switch value {
        case .text(let text):
            guard !Self.isConstant(text, under: name) else { return }
            found.add(text, Self.kind(forName: name))
            for part in Self.credentials(in: text) { found.add(part, Self.kind(forName: name)) }
        case .map(let members):
            for member in members { collectSecret(member.value, named: name, into: &found) }
        case .list(let values):
            for element in values { collectSecret(element, named: name, into: &found) }
        case .opaque:
            break
        }
    }

    /// What printable runs show: JWTs, keys, JSON or forms in runs of 16 bytes or more, and a run
    /// after a run that is a credential name, at most 6 bytes on (a length, a tag).
    private func collect(runs bytes: [UInt8], into found: inout Findings) {
        let runs = BinaryBodyReader.printableRuns(bytes, minimum: SecretRedactor.minimumLength)
        for (index, run) in runs.enumerated() {
            if run.text.utf8.count >= 16 { collect(text: run.text, into: &found, depth: 1) }
            guard index + 1 < runs.count, Self.mayBeCredentialName(run.text), isCredentialName(run.text) else { continue }
            let next = runs[index + 1]
            if next.start - (run.start + run.text.utf8.count) <= 6 { found.add(next.text, Self.kind(forName: run.text)) }
        }
    }

    /// Whether a run can be a credential's name at all: short, a name's characters, holding one of
    /// the words credential names end in. Runs of arbitrary bytes are not asked (nor remembered).
    private static func mayBeCredentialName(_ text: String) -> Bool {
        guard text.utf8.count <= 64,
            text.utf8.allSatisfy({ byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            })
        else { return false }
        let lowered = text.lowercased()
        return nameWords.contains { lowered.contains($0) }
    }

    private static let nameWords = [
        "token", "pass", "pwd", "secret", "key", "auth", "session", "sid", "code", "pin", "otp", "sig", "jwt", "csrf", "xsrf",
        "cookie", "credential", "bearer", "ticket", "verifier",
    ]
}
