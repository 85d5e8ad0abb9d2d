import Foundation
import ScenarioEngine
import ScenarioTraces
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

/// What real exporters write that redaction once missed or masked wrongly.
@Suite struct ExporterShapeRedactionTests {
    private func redactedText(_ entry: HARLog.Entry) -> (text: String, report: TraceRedactor.Report) {
        let (redacted, report) = TraceRedactor().redact(HARLog(entries: [entry]))
        let entry = redacted.entries[0]
        let all =
            [entry.request.url, entry.request.body ?? "", String(decoding: entry.response?.body ?? Data(), as: UTF8.self)]
            + entry.request.headers.map(\.value) + (entry.response?.headers.map(\.value) ?? [])
        return (all.joined(separator: "\n"), report)
    }

    /// Firefox, Firebug and chrome-har join several `Set-Cookie`s in one value, a line each.
    @Test func everyCookieOfAJoinedSetCookieIsMasked() {
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "GET", "https://h/me", responseHeaders: [("Set-Cookie", "theme=dark; Path=/\nsession_id=s3cr3tSessionValue0042; HttpOnly")])
        )
        #expect(!text.contains("s3cr3tSessionValue0042"), "\(text)")
        #expect(text.contains("theme=dark"))
    }

    /// An implicit grant hands its token in a redirect's query or fragment.
    @Test func tokensInALocationHeaderAreMasked() {
        for location in [
            "myapp://cb?access_token=at-ONLYINLOCATION-0123&token_type=bearer", "myapp://cb#access_token=at-ONLYINLOCATION-0123",
        ] {
            let (text, _) = redactedText(
                TraceRedactorTests.entry("GET", "https://h/authorize", status: 302, responseHeaders: [("Location", location)]))
            #expect(!text.contains("at-ONLYINLOCATION-0123"), "\(text)")
            #expect(text.contains("myapp://cb"))
        }
    }

    /// CORS headers name credentials without holding any, and a flag is never a secret.
    @Test func corsHeadersAndFlagsAreNotSecrets() {
        let (text, report) = redactedText(
            TraceRedactorTests.entry(
                "GET", "https://h/users/search?q=ana&include_blocked=true",
                responseHeaders: [
                    ("Access-Control-Allow-Credentials", "true"), ("Access-Control-Allow-Headers", "Authorization, Content-Type"),
                ]))
        #expect(text.contains("include_blocked=true"), "\(text)")
        #expect(text.contains("Authorization, Content-Type"), "\(text)")
        #expect(report.total == 0, "\(report)")
    }

    /// `{code, msg, data}` envelopes: a status or an API constant under `code` is no one-time code.
    @Test func aShortOrConstantCodeIsKeptAndAOneTimeCodeIsNot() {
        let (text, report) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/verify", body: #"{"code":"839201"}"#,
                response: #"{"code":200,"msg":"ok","data":{"code":"USER_BLOCKED","count":0}}"#))
        #expect(text.contains(#""code":200"#), "\(text)")
        #expect(text.contains(#""code":"USER_BLOCKED""#), "\(text)")
        #expect(!text.contains("839201"), "\(text)")
        #expect(report.counts == [.code: 1], "\(report)")
        // Capitals are a constant under `code` only with an underscore or past 8 letters; under a
        // one-time-code name they are always the code.
        let (codes, _) = redactedText(
            TraceRedactorTests.entry("POST", "https://h/verify", body: #"{"passcode":"LETMEIN","otp":"KXJQWP","code":"QWERTY"}"#))
        for secret in ["LETMEIN", "KXJQWP", "QWERTY"] { #expect(!codes.contains(secret), "\(secret) left: \(codes)") }
    }

    /// `key` is a credential in a query only when key-shaped; `tickets` are data, a `jsapi_ticket` is not.
    @Test func keysAndTicketsAreJudgedByTheirShape() {
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "GET", "https://h/items?sort=asc&key=name", response: #"{"tickets":[{"status":"open","priority":"high"}],"name":"Ann"}"#))
        for kept in ["key=name", #""status":"open""#, #""priority":"high""#, #""name":"Ann""#] {
            #expect(text.contains(kept), "\(kept) masked: \(text)")
        }
    }

    /// A pagination `Link` and a `Refresh` hold URLs too.
    @Test func tokensInLinkAndRefreshHeadersAreMasked() {
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "GET", "https://h/items",
                responseHeaders: [
                    ("Link", #"<https://h/items?page=2&access_token=at-INLINK-0123456789>; rel="next""#),
                    ("Refresh", "0; url=https://h/x?token=tok-INREFRESH-0123"),
                ]))
        #expect(!text.contains("at-INLINK-0123456789"), "\(text)")
        #expect(!text.contains("tok-INREFRESH-0123"), "\(text)")
        #expect(text.contains(#"rel="next""#))
    }

    /// Credentials under names real services use: a WeChat ticket, a Google key in the query, an
    /// Azure SAS signature, a short cookie's whole base64 form standing alone.
    @Test func moreCredentialNamesAndShortSecretsInBase64() {
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "GET", "https://h/maps?key=AIzaSyExampleKey0123&sig=sv2021SASsignature99&hm=TG0tOXFWbFU%3D",
                headers: [("Cookie", "_kuid_=Lm-9qVlU")], response: #"{"jsapi_ticket":"kgt8ON7yVITDhtdwci0qeW"}"#))
        for secret in ["AIzaSyExampleKey0123", "sv2021SASsignature99", "kgt8ON7yVITDhtdwci0qeW", "Lm-9qVlU", "TG0tOXFWbFU"] {
            #expect(!text.contains(secret), "\(secret) left: \(text)")
        }
    }

    /// Cloud keys by name and header, fields and elements of HTML and XML, and a token written
    /// back as numeric entities; counts under plural names stay.
    @Test func keysMarkupAndEntitiesAreFoundAndCountsAreNot() {
        let token = "tok-Ent1tyK3y9"
        let entities = token.unicodeScalars.map { "&#\($0.value);" }.joined()
        let hex = token.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
        let page =
            #"<html><form><input type="hidden" value="csrf-Zx81Qv0pLm" name="csrf_token"></form>"#
            + #"<meta name="csrf-token" content="meta-Qa71Wc2e"><p>\#(entities) \#(hex)</p></html>"#
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/keys", headers: [("X-Access-Key", "hdr-AccessKey77"), ("Ocp-Apim-Subscription-Key", "sub-K3y-0099")],
                body: #"{"secret_key":"sk-Live0123abcd","access_key":"AKIAEXAMPLE0123","auth_token":"\#(token)"}"#,
                responseHeaders: [("Content-Type", "text/html")],
                response: page + #"<xml><access_token>xml-T0ken-4455</access_token></xml>"#))
        for secret in [
            "hdr-AccessKey77", "sub-K3y-0099", "sk-Live0123abcd", "AKIAEXAMPLE0123", "csrf-Zx81Qv0pLm", "meta-Qa71Wc2e", "xml-T0ken-4455",
            entities, hex,
        ] {
            #expect(!text.contains(secret), "\(secret) left: \(text)")
        }
        let (counts, _) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/complete", body: #"{"max_tokens":4096,"pin":"9182"}"#,
                response: #"{"total_tokens":12345,"secrets":3,"otp_code":889911}"#))
        for kept in ["4096", "12345", #""secrets":3"#] { #expect(counts.contains(kept), "\(kept) masked: \(counts)") }
        for masked in ["9182", "889911"] { #expect(!counts.contains(masked), "\(masked) left: \(counts)") }
    }

    /// Names and shapes of real apps: a Rails or WordPress form, one-time codes by other names,
    /// PKCE and device flow, a second cookie of a comma-joined `Set-Cookie`, a SOAP password with
    /// spaces; and what they are not: a UUID in a path, an error code in snake case.
    @Test func realFormsCodesAndCookiesAreFoundAndIdsAreNot() {
        let order = "3f2b8c1e-9a4d-4e7f-b2c1-7d8e9f0a1b2c"
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/v1/orders/\(order)",
                body: "user%5Bemail%5D=a%40b.c&user%5Bpassword%5D=Rails-Pw-2024&pwd=Wp-Pass-99&code_verifier=pkce-V3rifier-0123456789",
                responseHeaders: [
                    ("Set-Cookie", "a=first-cookie-1; path=/, remember_user_token=rememb3r-T0ken-9; expires=Wed, 21 Oct 2026 07:28:00 GMT")
                ],
                response: #"{"two_factor_code":"551177","device_code":"dev-C0de-4455","code":"card_declined","id":"\#(order)"}"#))
        for secret in ["Rails-Pw-2024", "Wp-Pass-99", "pkce-V3rifier-0123456789", "rememb3r-T0ken-9", "551177", "dev-C0de-4455"] {
            #expect(!text.contains(secret), "\(secret) left: \(text)")
        }
        let (soap, _) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/soap", response: "<Envelope><wsse:Password>Winter is Coming 42</wsse:Password></Envelope>"))
        #expect(!soap.contains("Winter is Coming 42"), "\(soap)")
        for kept in ["https://h/v1/orders/\(order)", #""code":"card_declined""#, #""id":"\#(order)""#] {
            #expect(text.contains(kept), "\(kept) masked: \(text)")
        }
    }

    /// Secrets in free text (a GraphQL query, a page's script and attributes, a key by its
    /// prefix, a password escaped beyond ASCII) and what is not one: an API's error number, a
    /// header about a credential, a preference cookie, a page's cursor, a message.
    @Test func literalsShapesAndEscapesAreFoundAndTheirNeighboursAreNot() {
        let query = #"{"query":"mutation { login(email: \"a@b.c\", password: \"Gql-Pw-4417\") }"}"#
        let page =
            #"<html><body data-csrf="dataCsrf-8812xz"><script>window.App = {csrfToken: "jsCsrf-5521qq"};</script>"#
            + #"<script id="__NEXT_DATA__" type="application/json">{"props":{"accessToken":"next-Acc3ss-0099"}}</script></html>"#
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/graphql", headers: [("X-OAuth-Scopes", "repo, read:org"), ("X-Token-TTL", "3600s")], body: query,
                responseHeaders: [("Set-Cookie", "tz=Europe%2FBerlin"), ("Content-Type", "text/html")], response: page))
        for secret in ["Gql-Pw-4417", "dataCsrf-8812xz", "jsCsrf-5521qq", "next-Acc3ss-0099"] {
            #expect(!text.contains(secret), "\(secret) left: \(text)")
        }
        for kept in ["repo, read:org", "3600s", "tz=Europe%2FBerlin", "a@b.c"] { #expect(text.contains(kept), "\(kept) masked: \(text)") }

        let (api, _) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/pay", body: #"{"stripe_key":"sk_live_51HxAbCdEfGhIjKlMnOp","password":"P\u00e4ssw\u00f6rt#2024"}"#,
                response:
                    #"{"code":40101,"msg":"token: \"expired\"","nextPageToken":"CAoQAA","body":"{\"pw\":\"P\\u00e4ssw\\u00f6rt#2024\"}"}"#))
        #expect(!api.contains("sk_live_51HxAbCdEfGhIjKlMnOp"), "\(api)")
        #expect(!api.contains(#"P\\u00e4ssw\\u00f6rt#2024"#), "\(api)")
        for kept in [#""code":40101"#, "expired", "CAoQAA"] { #expect(api.contains(kept), "\(kept) masked: \(api)") }
    }

    /// Markup's other shapes: codes of digits in a field or an element, unquoted attributes, CDATA,
    /// a body led by a tab, a non-ASCII character as an entity; and what is not a credential there:
    /// HTML's `<code>`, a cloud error's `<Code>`, a count in a query.
    @Test func markupCodesAreFoundAndMarkupTextIsNot() {
        let page =
            "\t<html><form><input name=\"otp_code\" value=\"739451\"><input type=hidden name=csrf_token value=csrfUnq-Q81z></form>"
            + "<p>See <code>/users/me/blocked</code></p><mfa_code>482913</mfa_code>"
            + "<Error><Code>AccessDenied</Code><refresh_token><![CDATA[cdata-R3fresh-77]]></refresh_token></Error></html>"
        let (text, _) = redactedText(
            TraceRedactorTests.entry(
                "POST", "https://h/users/me/blocked?max_tokens=4096",
                body: #"{"password":"pässwort-Geheim1","status":"AccessDenied"}"#, responseHeaders: [("Content-Type", "text/html")],
                response: page + "<p>p&#228;sswort-Geheim1</p>"))
        for secret in ["739451", "482913", "csrfUnq-Q81z", "cdata-R3fresh-77", "p&#228;sswort-Geheim1"] {
            #expect(!text.contains(secret), "\(secret) left: \(text)")
        }
        for kept in [
            "https://h/users/me/blocked?max_tokens=4096", "<code>/users/me/blocked</code>", "<Code>AccessDenied</Code>",
            #""status":"AccessDenied""#,
        ] {
            #expect(text.contains(kept), "\(kept) masked: \(text)")
        }
    }
}
