import Foundation
import ScenarioKit
import Testing

/// The masker against seeded canaries planted in every encoding, and the policy's line
/// between secrets and what only looks related (numbers, `passwordReset`).
@Suite("Secret encodings")
struct SecretEncodingTests {
    /// Canaries with the characters encodings treat differently: `+ / =`, spaces, quotes.
    static func canaries(seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        return [
            generator.canary("cq", specials: "+/="), generator.canary("cs", specials: " +/"), generator.canary("cj", specials: "\"\\/"),
            generator.canary("ca"), generator.canary("cp", specials: "&=%"),
        ]
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyEncodingOfACanaryIsMasked(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let canaries = Self.canaries(seed: seed)
        let redactor = SecretRedactor(secrets: canaries)
        for canary in canaries {
            var planted = ""
            for form in CanaryForms.all(canary, using: &generator) {
                // Alone, between words, and glued to letters and bytes as binary data holds it.
                planted += "x \(form) y;z\(form)Q;\u{1}d\(form)\u{FFFD}A\n"
            }
            for offset in 0..<3 {
                planted += "blob " + CanaryForms.blob(canary, offset: offset, url: false, using: &generator) + "\n"
                planted += "blob " + CanaryForms.blob(canary, offset: offset, url: true, using: &generator) + "\n"
                planted +=
                    "url-blob "
                    + (CanaryForms.blob(canary, offset: offset, url: false, using: &generator)
                        .addingPercentEncoding(withAllowedCharacters: CanaryForms.unreserved) ?? "") + "\n"
            }
            let masked = redactor.redact(planted)
            let leaks = CanaryForms.leaks(of: [canary], in: masked, seed: seed)
            #expect(leaks.isEmpty, "\(leaks) left in:\n\(masked)")
            #expect(masked.contains("‹redacted#"))
            // Unmasked, every form is there: the check can fail.
            #expect(!CanaryForms.leaks(of: [canary], in: planted, seed: seed).isEmpty)
        }
    }

    @Test func numbersAreMaskedOnlyAsACredentialsValue() {
        let redactor = SecretRedactor(secrets: ["1001"])
        let text = #"requests total: expected 1001, got 1001; status 1001; {"pin":1001} pin=1001 {\"otp_code\": \"1001\"}"#
        #expect(
            redactor.redact(text)
                == #"requests total: expected 1001, got 1001; status 1001; {"pin":‹redacted#1›} pin=‹redacted#1› {\"otp_code\": \"‹redacted#1›\"}"#
        )
    }

    @Test func namesThatMerelyContainACredentialWordAreNotCredentials() {
        let state: JSONValue = [
            "passwordReset": ["message": "Check your inbox, Ana", "password": "pr-canary-5521"],
            "passwordResetCooldown": 3600, "tokenType": "Bearer", "screen": "passwordReset",
            "tokens": ["access": "tok-canary-1", "expiresIn": 3600], "credentials": ["user": "ana-canary"],
            "secrets": ["s-canary-22"], "bearer": "br-canary-7", "password_confirmation": "pc-canary-9",
        ]
        let secrets = SecretRedactor.secrets(in: state)
        for secret in ["pr-canary-5521", "tok-canary-1", "ana-canary", "s-canary-22", "br-canary-7", "pc-canary-9"] {
            #expect(secrets.contains(secret), "\(secret) not found secret")
        }
        for visible in ["Check your inbox, Ana", "Bearer", "passwordReset", "3600"] {
            #expect(!secrets.contains(visible), "\(visible) would be masked")
        }
    }

    @Test func credentialPathWordsMakeTheirNextSegmentSecret() {
        #expect(SecretRedactor.secrets(inPath: "/reset/Ab3dEf9hIj") == ["Ab3dEf9hIj"])
        #expect(SecretRedactor.secrets(inPath: "/password/verify/kT2-x9Qm_77") == ["kT2-x9Qm_77"])
        #expect(SecretRedactor.secrets(inPath: "/reset/confirm").isEmpty)
        #expect(SecretRedactor.secrets(inPath: "/users/12345678/posts").isEmpty)
    }

    @Test func aQueryTokenWithPlusSlashAndEqualsLeavesNoTraceInARedactedHAR() throws {
        var generator = SeededGenerator(seed: 11)
        let token = generator.canary("hq", specials: "+/=")
        let encoded = CanaryForms.percent(token, encode: { !CanaryForms.isUnreserved($0) })
        let log = HARLog(entries: [
            HARLog.Entry(
                started: Date(timeIntervalSince1970: 0), time: 1,
                request: HARLog.Request(method: "GET", url: "https://h/feed?access_token=\(encoded)&page=2", headers: []),
                response: HARLog.Response(status: 200, headers: [], body: Data("echo \(token)".utf8)))
        ])
        let (redacted, report) = TraceRedactor().redact(log)
        let written = redacted.harDocument().prettyText
        #expect(CanaryForms.leaks(of: [token], in: written).isEmpty, "\(written)")
        #expect(written.contains("redacted-token-1"))
        #expect(written.contains("page=2"))
        #expect(report.counts == [.token: 1])
    }
}
