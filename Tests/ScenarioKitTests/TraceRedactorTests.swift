import Foundation
import ScenarioKit
import Testing

/// Redaction replaces every kind of secret with a placeholder that is the same wherever the
/// secret appears, so a redacted trace still replays.
@Suite struct TraceRedactorTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl"

    static func entry(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: String? = nil, status: Int = 200,
        responseHeaders: [(String, String)] = [], response: String = ""
    ) -> HARLog.Entry {
        HARLog.Entry(
            started: Date(timeIntervalSince1970: 0), time: 1,
            request: HARLog.Request(method: method, url: url, headers: headers.map { HARLog.Field($0.0, $0.1) }, body: body),
            response: HARLog.Response(status: status, headers: responseHeaders.map { HARLog.Field($0.0, $0.1) }, body: Data(response.utf8)))
    }

    @Test func aTokenFromALoginAnswerGetsOnePlaceholderEverywhere() throws {
        let log = HARLog(entries: [
            Self.entry(
                "POST", "https://h/auth/login", body: #"{"email":"a@b.c","password":"pw-Secret-1"}"#,
                response: #"{"data":{"access_token":"tok-AAA111","refresh_token":"ref-BBB222"}}"#),
            Self.entry("GET", "https://h/feed", headers: [("Authorization", "Bearer tok-AAA111")]),
            Self.entry("POST", "https://h/auth/refresh", body: #"{"refresh_token":"ref-BBB222"}"#),
        ])
        let (redacted, report) = TraceRedactor().redact(log)
        let login = try #require(JSONValue.parse(redacted.entries[0].response?.body ?? Data()))
        let access = try #require(login["data"]?["access_token"]?.stringValue)
        #expect(access == "redacted-token-1")
        #expect(redacted.entries[1].request.headers.first?.value == "Bearer redacted-token-1")
        #expect(redacted.entries[2].request.body == #"{"refresh_token":"redacted-token-2"}"#)
        #expect(redacted.entries[0].request.body == #"{"email":"a@b.c","password":"redacted-password-1"}"#)
        #expect(report.counts == [.password: 1, .token: 2])
        #expect(report.description == "redacted 3 secrets: 2 token, 1 password")
    }

    @Test func headersCookiesQueriesFormsAndJWTsAreAllFound() throws {
        let log = HARLog(entries: [
            Self.entry(
                "POST", "https://h/x?token=q-tok-77&page=2",
                headers: [("Cookie", "sid=ck-12345678; theme=dark"), ("X-API-Key", "key-9988"), ("Accept", "application/json")],
                body: "user=ana&password=p%40ss+word&code=4242",
                responseHeaders: [("Set-Cookie", "sid=ck-56781234; Path=/; HttpOnly")],
                response: "note: \(Self.jwt) in text")
        ])
        let (redacted, _) = TraceRedactor().redact(log)
        let entry = try #require(redacted.entries.first)
        let all =
            [entry.request.url, entry.request.body ?? "", String(decoding: entry.response?.body ?? Data(), as: UTF8.self)]
            + entry.request.headers.map(\.value) + (entry.response?.headers.map(\.value) ?? [])
        let text = all.joined(separator: "\n")
        for secret in ["q-tok-77", "ck-12345678", "key-9988", "p%40ss+word", "4242", "ck-56781234", Self.jwt] {
            #expect(!text.contains(secret), "\(secret) left")
        }
        // What is not secret stays: other cookies, attributes, other parameters.
        for kept in ["theme=dark", "Path=/", "page=2", "user=ana", "application/json"] {
            #expect(text.contains(kept), "\(kept) lost")
        }
        #expect(entry.response?.body == Data("note: redacted-jwt-1 in text".utf8))
    }

    @Test func numericCodesInJSONBecomeStringsSoTheBodyStaysJSON() throws {
        let log = HARLog(entries: [Self.entry("POST", "https://h/verify", body: #"{"code":123456,"count":123456}"#)])
        let body = try #require(TraceRedactor().redact(log).log.entries.first?.request.body)
        #expect(body == #"{"code":"redacted-code-1","count":123456}"#)
    }

    @Test func aSecretInsideALongerWordIsLeftAlone() throws {
        let log = HARLog(entries: [
            Self.entry("GET", "https://h/a", headers: [("Authorization", "Bearer abc1")], response: "abc12 abc1 xabc1")
        ])
        let body = TraceRedactor().redact(log).log.entries.first?.response?.body
        #expect(body == Data("abc12 redacted-authorization-1 xabc1".utf8))
    }

    @Test func redactingTwiceChangesNothingMore() throws {
        let log = HARLog(entries: [Self.entry("GET", "https://h/a", headers: [("Authorization", "Bearer abc1")])])
        let once = TraceRedactor().redact(log)
        let twice = TraceRedactor().redact(once.log)
        #expect(twice.log == once.log)
        #expect(twice.report.total == 0)
    }
}
