import Foundation

/// Finds known secrets in text in every form they can take there and replaces each with its
/// mask. The engine behind both ``SecretRedactor`` (`‹redacted#1›`) and ``TraceRedactor``
/// (`redacted-token-1`); which values are secret is ``RedactionPolicy``'s business.
///
/// Forms found, all precomputed once per secret:
/// - as is, and with any mix of percent-escapes (`%2F` or `/`, `%2b` or `%2B`, `+` or `%20` for a
///   space), JSON escapes (`\"`, `\/`, `\\`, `\u0041`), and escapes of escapes (a JSON string in a
///   JSON string);
/// - in base64 and base64url, with or without padding, inside a larger blob at any offset: for
///   each of the three alignments the characters that only the secret's bytes decide; and the
///   secret's whole encoding, which a short secret's cores are too short to stand for;
/// - a secret of digits only (a PIN, a one-time code) only where it stands as the value of a
///   credential name (`"code":123456`, `pin=1234`), so counts and statuses are never masked.
///
/// A secret of ``anywhereLength`` bytes or more is masked wherever it occurs, inside a longer
/// word or binary data too; a shorter one only where it stands alone, so `A1b2` does not eat
/// `A1b20`. The search is byte-wise: a table of possible first bytes picks the candidates.
package struct SecretMasker: Sendable {
    /// Secrets (and base64 forms) at least this long are masked inside longer words too.
    static let anywhereLength = 12

    /// What one byte of a needle may appear as.
    struct Needle: Sendable {
        var bytes: [UInt8]
        var mask: [UInt8]
        /// Masked inside words too, not only where it stands alone.
        var anywhere: Bool
        /// Digits only: masked only as the value of a credential name.
        var keyed: Bool
        /// Percent- and JSON-escapes of each byte are accepted (not for base64 forms' letters,
        /// which are accepted escaped too: a base64 blob in a URL is percent-encoded).
        var escapes: Bool
        /// The place of the secret it stands for in the list the masker was made from.
        var source = 0
    }

    private let needles: [Needle]
    /// Indices of `needles` (longest first) whose match may begin with each byte value.
    private let starts: [[Int]]
    /// Indices of `needles` (longest first) by their first two bytes as written: where neither
    /// byte of the text can begin an escape, only these can match, which spares trying every
    /// needle that merely shares the first byte.
    private let pairs: [UInt16: [Int]]
    let policy: RedactionPolicy
    /// Non-ASCII secrets with their masks: also searched as Foundation compares (either
    /// Unicode normal form), which bytes cannot do.
    private let unicode: [(secret: String, mask: String)]
    /// Every needle by its bytes as written, for text where no escape can begin: there one
    /// walk finds every needle that starts at a place, however many share a prefix.
    private let trie: NeedleTrie
    /// The longest needle, in bytes.
    private let longest: Int

    /// A masker for these secrets; `mask` is what each becomes. Values shorter than
    /// ``SecretRedactor/minimumLength`` are ignored.
    package init(_ secrets: [(secret: String, mask: String)], policy: RedactionPolicy = RedactionPolicy()) {
        var needles: [Needle] = []
        var unicode: [(String, String)] = []
        var seen: Set<[UInt8]> = []
        for (source, (secret, mask)) in secrets.enumerated() where secret.count >= SecretRedactor.minimumLength {
            let bytes = Array(secret.utf8)
            let maskBytes = Array(mask.utf8)
            guard seen.insert(bytes).inserted else { continue }
            if bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                needles.append(Needle(bytes: bytes, mask: maskBytes, anywhere: false, keyed: true, escapes: false, source: source))
                continue
            }
            needles.append(
                Needle(
                    bytes: bytes, mask: maskBytes, anywhere: bytes.count >= Self.anywhereLength, keyed: false, escapes: true, source: source
                ))
            if bytes.contains(where: { $0 >= 0x80 }) { unicode.append((secret, mask)) }
            for form in Self.base64Cores(of: bytes) + Self.base64Whole(of: bytes)
            where form.count >= SecretRedactor.minimumLength && seen.insert(form).inserted {
                needles.append(
                    Needle(
                        bytes: form, mask: maskBytes, anywhere: form.count >= Self.anywhereLength, keyed: false, escapes: true,
                        source: source))
            }
        }
        // Longest first, so a secret that contains another is masked whole.
        needles.sort { $0.bytes.count != $1.bytes.count ? $0.bytes.count > $1.bytes.count : $0.bytes.lexicographicallyPrecedes($1.bytes) }
        var starts = [[Int]](repeating: [], count: 256)
        for (index, needle) in needles.enumerated() {
            for byte in Self.firstBytes(of: needle) where starts[Int(byte)].last != index { starts[Int(byte)].append(index) }
        }
        var pairs: [UInt16: [Int]] = [:]
        for (index, needle) in needles.enumerated() where needle.bytes.count >= 2 {
            pairs[UInt16(needle.bytes[0]) << 8 | UInt16(needle.bytes[1]), default: []].append(index)
        }
        var trie = NeedleTrie()
        for (index, needle) in needles.enumerated() { trie.insert(needle.bytes, needle: index) }
        self.trie = trie
        self.longest = needles.map(\.bytes.count).max() ?? 0
        self.needles = needles
        self.starts = starts
        self.pairs = pairs
        self.policy = policy
        self.unicode = unicode.sorted { $0.0.count > $1.0.count }
    }

    /// Whether there is nothing to mask.
    var isEmpty: Bool { needles.isEmpty }

    /// The base64 and base64url characters that only `secret`'s bytes decide, for the secret
    /// at offset 0, 1 and 2 (mod 3) of a larger blob: each is a substring of every base64 text
    /// of any blob holding the secret at that alignment, padded or not.
    static func base64Cores(of secret: [UInt8]) -> [[UInt8]] {
        var cores: [[UInt8]] = []
        for offset in 0..<3 {
            let data = Data([UInt8](repeating: 0, count: offset) + secret)
            let text = Array(data.base64EncodedString().utf8)
            // Characters from the first one wholly inside the secret to the last one wholly inside.
            let first = (offset * 8 + 5) / 6
            let end = ((offset + secret.count) * 8) / 6
            guard end > first else { continue }
            let core = Array(text[first..<end])
            cores.append(core)
            let url = core.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : ($0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0) }
            if url != core { cores.append(url) }
        }
        return cores
    }

    /// The secret's own base64 and base64url text, padded and not: a short secret's cores are
    /// too short to stand alone, but its whole encoding does (`?hm=TG0tOXFWbFU=`).
    static func base64Whole(of secret: [UInt8]) -> [[UInt8]] {
        let padded = Array(Data(secret).base64EncodedString().utf8)
        let url = padded.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : ($0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0) }
        var forms = [padded]
        if url != padded { forms.append(url) }
        for form in forms where form.last == UInt8(ascii: "=") { forms.append(Array(form.prefix { $0 != UInt8(ascii: "=") })) }
        return forms
    }

    /// The bytes a needle's match may begin with as written (a space also as `+`); an escaped
    /// first byte is found by what the escape stands for (``escapedBytes(at:in:)``).
    private static func firstBytes(of needle: Needle) -> [UInt8] {
        guard let first = needle.bytes.first else { return [] }
        guard needle.escapes, first == UInt8(ascii: " ") else { return [first] }
        return [first, UInt8(ascii: "+")]
    }

    /// Bytes that may begin an escaped form of a needle byte (`%`, `\`, `&`, `+` for a space).
    private static let escapeStarts: [Bool] = (0..<256).map { [0x25, 0x5C, 0x26, 0x2B].contains($0) }

    /// The text with every secret in every form replaced by its mask.
    package func mask(_ text: String) -> String {
        guard !needles.isEmpty else { return text }
        var result = text
        if !unicode.isEmpty {
            for (secret, mask) in unicode { result = Self.replaceStandaloneByCharacter(secret, with: mask, in: result) }
        }
        var contiguous = result
        return contiguous.withUTF8 { bytes in
            masked(bytes, everywhere: false).map { String(decoding: $0, as: UTF8.self) } ?? result
        }
    }

    /// A binary body (``BodyKind/isBinary(_:contentType:)``) with every secret of
    /// ``SecretRedactor/minimumLength`` or more replaced wherever it occurs, as is, in an escape or
    /// in base64 (between a MessagePack length and a protobuf tag no byte says where a word ends),
    /// by its mask cut or filled to the same length (``fitted(_:to:)``): the body keeps its length
    /// and every length prefix in it still adds up. Every other byte stays as it was. `found`
    /// hears the place in the masker's list of each secret masked.
    package func mask(binary body: Data, found: ((Int) -> Void)? = nil) -> Data {
        guard !needles.isEmpty else { return body }
        return body.withUnsafeBytes { raw in
            masked(raw.bindMemory(to: UInt8.self), everywhere: true, found: found).map { Data($0) } ?? body
        }
    }

    /// The bytes with every secret replaced, or `nil` when there was none; `everywhere` masks
    /// secrets of any length inside words too, each by a mask of its own length (binary data has
    /// no words, and its lengths must hold).
    private func masked(_ bytes: UnsafeBufferPointer<UInt8>, everywhere: Bool, found report: ((Int) -> Void)? = nil) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        var index = 0
        let count = bytes.count
        let noCandidates: [Int] = []
        // The first byte at or after `index` that may begin an escape (`%`, `\`, `&`, `+`).
        var nextEscape = -1
        var ends: [Int] = []
        while index < count {
            let here = bytes[index]
            if nextEscape < index {
                nextEscape = index
                while nextEscape < count, !Self.escapeStarts[Int(bytes[nextEscape])] { nextEscape += 1 }
            }
            // No escape within reach of the longest needle: only needles written as they are
            // can match here, and the trie finds them all in one walk, longest last.
            let found: (end: Int, needle: Int)?
            if nextEscape - index >= longest || nextEscape == count {
                found = starts[Int(here)].isEmpty ? nil : plainMatch(at: index, in: bytes, everywhere: everywhere, ends: &ends)
            } else {
                let candidates: [Int]
                if index + 1 < count, !Self.escapeStarts[Int(here)], !Self.escapeStarts[Int(bytes[index + 1])] {
                    candidates =
                        starts[Int(here)].isEmpty
                        ? noCandidates : pairs[UInt16(here) << 8 | UInt16(bytes[index + 1]), default: noCandidates]
                } else if Self.escapeStarts[Int(here)] {
                    // Only needles whose first byte this escape may stand for: trying every
                    // needle at each `&amp;` or `%20` of a page made masking quadratic.
                    candidates = Self.escapedBytes(at: index, in: bytes).reduce(starts[Int(here)]) { Self.merged($0, starts[Int($1)]) }
                } else {
                    candidates = starts[Int(here)]
                }
                found =
                    candidates.lazy.compactMap { candidate -> (end: Int, needle: Int)? in
                        let needle = needles[candidate]
                        guard let end = match(needle, in: bytes, at: index),
                            accepts(needle, in: bytes, from: index, to: end, everywhere: everywhere)
                        else {
                            return nil
                        }
                        return (end, candidate)
                    }.first
            }
            guard let found else {
                index += 1
                continue
            }
            out.append(contentsOf: bytes[copied..<index])
            let mask = needles[found.needle].mask
            out.append(contentsOf: everywhere ? Self.fitted(mask, to: found.end - index) : mask)
            report?(needles[found.needle].source)
            copied = found.end
            index = found.end
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// The longest needle written as it is that matches at `start` and stands where it may.
    private func plainMatch(at start: Int, in bytes: UnsafeBufferPointer<UInt8>, everywhere: Bool, ends: inout [Int]) -> (
        end: Int, needle: Int
    )? {
        trie.needles(startingAt: start, in: bytes, into: &ends)
        for candidate in ends.reversed() {
            let needle = needles[candidate]
            let end = start + needle.bytes.count
            if accepts(needle, in: bytes, from: start, to: end, everywhere: everywhere) { return (end, candidate) }
        }
        return nil
    }

    /// Where a match of `needle` starting at `start` ends, if there is one.
    private func match(_ needle: Needle, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard needle.escapes else {
            let count = needle.bytes.count
            guard start + count <= bytes.count else { return nil }
            for offset in 0..<count where bytes[start + offset] != needle.bytes[offset] { return nil }
            return start + count
        }
        return Self.match(needle.bytes[...], in: bytes, at: start)
    }

    /// Matches the rest of a needle, each byte as is or escaped, backtracking between forms.
    private static func match(_ rest: ArraySlice<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Int? {
        guard let byte = rest.first else { return position }
        let tail = rest.dropFirst()
        let count = bytes.count
        guard position < count else { return nil }
        let here = bytes[position]
        // As is.
        if here == byte, let end = match(tail, in: bytes, at: position + 1) { return end }
        // A space as `+` (form encoding).
        if byte == UInt8(ascii: " "), here == UInt8(ascii: "+"), let end = match(tail, in: bytes, at: position + 1) { return end }
        // Percent-encoded, either case of hex; `%25` escapes once more (`%252F`).
        if here == UInt8(ascii: "%") {
            // `%2F`, or `%252F` (encoded again): skip any `25`s before the last escape.
            var at = position + 1
            while true {
                if at + 1 < count, let high = bytes[at].hexDigitValue, let low = bytes[at + 1].hexDigitValue, high << 4 | low == byte,
                    let end = match(tail, in: bytes, at: at + 2)
                {
                    return end
                }
                guard at + 3 < count, bytes[at] == UInt8(ascii: "2"), bytes[at + 1] == UInt8(ascii: "5") else { break }
                at += 2
            }
        }
        // An HTML entity (a server's HTML page, a report's markup): numeric for any character
        // (`&#78;`, `&#x4e;`, `&#228;` for the two bytes of `ä`), named for those HTML escapes by name.
        if here == UInt8(ascii: "&"), let (value, after) = numericEntity(in: bytes, at: position) {
            if value == UInt32(byte), let end = match(tail, in: bytes, at: after) { return end }
            if value >= 0x80, let scalar = Unicode.Scalar(value) {
                let encoded = Array(String(Character(scalar)).utf8)
                if rest.starts(with: encoded), let end = match(rest.dropFirst(encoded.count), in: bytes, at: after) { return end }
            }
        }
        if here == UInt8(ascii: "&"), let entities = htmlEntities[byte] {
            for entity in entities where position + entity.count <= count {
                var same = true
                for offset in 0..<entity.count where bytes[position + offset] != entity[offset] {
                    same = false
                    break
                }
                if same, let end = match(tail, in: bytes, at: position + entity.count) { return end }
            }
        }
        // JSON escapes, at any depth (a JSON string inside a JSON string): a run of backslashes
        // then the character, its short escape or a `\u00XX`.
        if here == UInt8(ascii: "\\") {
            var at = position
            while at < count, bytes[at] == UInt8(ascii: "\\") { at += 1 }
            let run = at - position
            if byte == UInt8(ascii: "\\"), run >= 2 {
                // A backslash escaped: 2, 4 or 8 backslashes (escaped once, twice or three times).
                for width in [2, 4, 8] where width <= run {
                    if let end = match(tail, in: bytes, at: position + width) { return end }
                }
            }
            if at < count {
                let next = bytes[at]
                if next == byte, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "/"), let end = match(tail, in: bytes, at: at + 1) {
                    return end
                }
                if let short = shortEscapes[byte], next == short, let end = match(tail, in: bytes, at: at + 1) { return end }
                if next == UInt8(ascii: "u"), at + 4 < count, bytes[at + 1] == UInt8(ascii: "0"), bytes[at + 2] == UInt8(ascii: "0"),
                    let high = bytes[at + 3].hexDigitValue, let low = bytes[at + 4].hexDigitValue, high << 4 | low == byte,
                    let end = match(tail, in: bytes, at: at + 5)
                {
                    return end
                }
                // A character beyond ASCII (`\u00e4`, a surrogate pair): the bytes of its UTF-8.
                if next == UInt8(ascii: "u"), byte >= 0x80, let (scalar, after) = Self.unicodeEscape(in: bytes, at: at) {
                    let encoded = Array(String(Character(scalar)).utf8)
                    if rest.starts(with: encoded), let end = match(rest.dropFirst(encoded.count), in: bytes, at: after) { return end }
                }
            }
        }
        return nil
    }

    static let htmlEntities: [UInt8: [[UInt8]]] = [
        UInt8(ascii: "&"): [Array("&amp;".utf8)], UInt8(ascii: "\""): [Array("&quot;".utf8)],
        UInt8(ascii: "'"): [Array("&apos;".utf8)], UInt8(ascii: "<"): [Array("&lt;".utf8)], UInt8(ascii: ">"): [Array("&gt;".utf8)],
    ]

    /// The character a `\uXXXX` escape at `position` (on its `u`) stands for, joining a surrogate
    /// pair, and where it ends.
    static func unicodeEscape(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (Unicode.Scalar, Int)? {
        func unit(at offset: Int) -> UInt32? {
            guard offset + 4 < bytes.count, bytes[offset] == UInt8(ascii: "u") else { return nil }
            var value: UInt32 = 0
            for index in offset + 1...offset + 4 {
                guard let digit = bytes[index].hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        guard let first = unit(at: position) else { return nil }
        if (0xD800...0xDBFF).contains(first) {
            guard position + 6 < bytes.count, bytes[position + 5] == UInt8(ascii: "\\"), let second = unit(at: position + 6),
                (0xDC00...0xDFFF).contains(second), let scalar = Unicode.Scalar(0x10000 + (first - 0xD800) << 10 + (second - 0xDC00))
            else { return nil }
            return (scalar, position + 11)
        }
        return Unicode.Scalar(first).map { ($0, position + 5) }
    }

    /// The character a numeric entity at `position` (`&#78;`, `&#x4E;`, leading zeros allowed)
    /// stands for, and where it ends.
    static func numericEntity(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (UInt32, Int)? {
        var at = position + 2
        guard at < bytes.count, bytes[position + 1] == UInt8(ascii: "#") else { return nil }
        let hex = bytes[at] | 0x20 == UInt8(ascii: "x")
        if hex { at += 1 }
        var value: UInt64 = 0
        let first = at
        while at < bytes.count, at - first < 16, let digit = hex ? bytes[at].hexDigitValue : bytes[at].decimalDigitValue {
            value = value * (hex ? 16 : 10) + UInt64(digit)
            at += 1
        }
        guard at > first, at < bytes.count, bytes[at] == UInt8(ascii: ";"), value <= 0x10FFFF else { return nil }
        return (UInt32(value), at + 1)
    }

    private static let shortEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\n"): UInt8(ascii: "n"), UInt8(ascii: "\r"): UInt8(ascii: "r"), UInt8(ascii: "\t"): UInt8(ascii: "t"),
    ]
}
