import Foundation

/// A seeded generator (SplitMix64): the same seed plants the same canaries on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A canary: `prefix`, then `length` letters and digits with `specials` mixed in, never
    /// starting or ending with a special character.
    mutating func canary(_ prefix: String, length: Int = 18, specials: String = "") -> String {
        let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        let digits = Array("0123456789")
        func pick(_ characters: [Character], _ generator: inout SeededGenerator) -> Character {
            characters[Int(generator.next() % UInt64(characters.count))]
        }
        var out = prefix + String(pick(alphanumerics, &self)) + String(pick(digits, &self))
        let special = Array(specials)
        for index in 0..<length {
            if !special.isEmpty, index % 4 == 1 {
                out.append(special[(index / 4) % special.count])
            } else {
                out.append(pick(alphanumerics, &self))
            }
        }
        return out + String(pick(alphanumerics, &self))
    }

    /// Random bytes.
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) } }
}

/// Every form a secret can take in an output, computed here independently of the masker.
enum CanaryForms {
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes the characters `encode` says, upper or lower case hex.
    static func percent(_ secret: String, lower: Bool = false, spaceAsPlus: Bool = false, encode: (Character) -> Bool) -> String {
        var out = ""
        for character in secret {
            if character == " ", spaceAsPlus {
                out += "+"
            } else if encode(character) {
                for byte in String(character).utf8 {
                    let hex = String(format: lower ? "%%%02x" : "%%%02X", byte)
                    out += hex
                }
            } else {
                out.append(character)
            }
        }
        return out
    }

    static func isUnreserved(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { unreserved.contains($0) }
    }

    /// JSON-escaped, as JSONEncoder writes it (with and without `\/`).
    static func jsonEscaped(_ secret: String) -> [String] {
        var forms: [String] = []
        for formatting in [JSONEncoder.OutputFormatting(), .withoutEscapingSlashes] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            if let data = try? encoder.encode(secret), let text = String(data: data, encoding: .utf8) {
                forms.append(String(text.dropFirst().dropLast()))
            }
        }
        return forms
    }

    /// The base64 and base64url characters only the secret decides, at offsets 0, 1 and 2 of
    /// a blob, from an encoding of the secret between random bytes.
    static func base64Cores(_ secret: String, using generator: inout SeededGenerator) -> [String] {
        let bytes = Array(secret.utf8)
        var forms: [String] = []
        for offset in 0..<3 {
            let blob = Data(generator.bytes(offset) + bytes + generator.bytes(2))
            let text = Array(blob.base64EncodedString())
            let first = Int((Double(offset * 8) / 6).rounded(.up))
            let end = Int((Double((offset + bytes.count) * 8) / 6).rounded(.down))
            let core = String(text[first..<end])
            forms.append(core)
            forms.append(core.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
        }
        return forms
    }

    /// A blob holding the secret at `offset` (mod 3), in base64 (`url`: base64url, unpadded).
    static func blob(_ secret: String, offset: Int, url: Bool, using generator: inout SeededGenerator) -> String {
        let text = Data(generator.bytes(offset + 3) + Array(secret.utf8) + generator.bytes(4)).base64EncodedString()
        guard url else { return text }
        return text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=", with: "")
    }

    /// Every form: as is; percent-encoded every way (upper and lower hex, `+` or `%20`, `/`
    /// kept, only `=` and spaces encoded, Foundation's query encoding); form-encoded;
    /// JSON-escaped (once and twice); HTML-escaped; base64 and base64url at every alignment.
    static func all(_ secret: String, using generator: inout SeededGenerator) -> [String] {
        var forms = [secret]
        let reserved = { (character: Character) in !isUnreserved(character) }
        forms.append(percent(secret, encode: reserved))
        forms.append(percent(secret, lower: true, encode: reserved))
        forms.append(percent(secret, spaceAsPlus: true, encode: reserved))
        forms.append(percent(secret, encode: { reserved($0) && $0 != "/" }))
        forms.append(percent(secret, encode: { $0 == "=" || $0 == " " || $0 == "\"" }))
        forms.append(percent(secret, lower: true, spaceAsPlus: true, encode: { reserved($0) && $0 != "/" && $0 != " " }))
        if let query = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { forms.append(query) }
        let escaped = jsonEscaped(secret)
        forms += escaped
        for once in escaped { forms += jsonEscaped(once) }
        forms.append(
            secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&apos;"))
        forms += base64Cores(secret, using: &generator)
        var seen: Set<String> = []
        return forms.filter { seen.insert($0).inserted }
    }

    /// The canaries of which some form is in `text`, with the form found.
    static func leaks(of canaries: [String], in text: String, seed: UInt64 = 7) -> [(canary: String, form: String)] {
        var generator = SeededGenerator(seed: seed)
        var found: [(String, String)] = []
        for canary in canaries {
            if let form = all(canary, using: &generator).first(where: text.contains) { found.append((canary, form)) }
        }
        return found
    }
}
