import Foundation
import Testing

/// Distinct canary secrets planted in every place a team keeps them, run failing on both routes:
/// no canary, in any encoding, reaches the console, the annotations, JUnit, JSON or HTML, unless the
/// user asks for secrets (which proves the canaries do reach every output).
@Suite("Canary secrets")
struct CanaryTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnkwNiJ9.c2lnbmF0dXJlMDY"
    static let canaries = [
        "canary-given-access-01", "canary-given-refresh-01b", "canary-header-02", "canary query 03+/=",
        #"canary"quote\04"#, "canary-resp-05", jwt, "canary-form-07", "canary-expected-08", "canary-state-09",
        "canary-named-10", "9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c",
    ]

    static let scenario = #"""
        {
          "name": "Canaries everywhere",
          "description": "Fails on purpose, with a secret in every place.",
          "secrets": ["favourite_colour"],
          "given": { "session": { "accessToken": "canary-given-access-01", "refreshToken": "canary-given-refresh-01b", "user": { "id": "u1" } } },
          "exchanges": [
            { "id": "reset", "request": { "method": "GET", "path": "/reset/9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c", "query": { "api_key": "canary query 03+/=" } },
              "response": { "status": 200, "headers": { "Content-Type": "text/plain" }, "text": "your token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnkwNiJ9.c2lnbmF0dXJlMDY" } },
            { "id": "profile", "request": { "method": "POST", "path": "/profile", "json": { "current_password": "canary\"quote\\04", "favourite_colour": "canary-named-10" } },
              "response": { "status": 200, "json": { "auth_token": "canary-resp-05" } } },
            { "id": "form", "request": { "method": "GET", "path": "/form" },
              "response": { "status": 200, "headers": { "Content-Type": "application/x-www-form-urlencoded" }, "text": "session_token=canary-form-07&x=1" } },
            { "id": "never", "request": { "method": "GET", "path": "/never", "headers": { "Authorization": "Bearer canary-header-02" } },
              "response": { "status": 200 } }
          ],
          "steps": [
            { "do": "request", "with": { "method": "POST", "path": "/profile", "json": { "current_password": "canary\"quote\\04", "favourite_colour": "canary-named-10" } } },
            { "do": "request", "with": { "path": "/form" } },
            { "do": "request", "with": { "path": "/reset/9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c", "query": { "api_key": "canary query 03+/=" } },
              "expect": { "value": { "access_token": "canary-expected-08" } } },
            { "do": "request", "with": { "path": "/unscripted", "query": { "password": "canary-given-access-01" } } }
          ],
          "expect": { "state": { "tokens": { "access": "canary-state-09" } } }
        }
        """#

    /// The forms a value can take in a report.
    static func encodings(_ secret: String) -> [String] {
        var forms = [secret, Data(secret.utf8).base64EncodedString()]
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        if let percent = secret.addingPercentEncoding(withAllowedCharacters: unreserved) {
            forms += [percent, percent.replacingOccurrences(of: "%20", with: "+")]
        }
        if let json = try? JSONEncoder().encode(secret), let text = String(data: json, encoding: .utf8) {
            forms.append(String(text.dropFirst().dropLast()))
        }
        // As the HTML page escapes text.
        forms.append(
            secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&apos;"))
        return forms
    }

    /// Every output of one failing run.
    private func outputs(route: String, extra: [String] = []) throws -> String {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/canaries.json", Self.scenario)
        let result = try ScenarioBinary.run(
            ["run", "--route", route, "--jobs", "1", "--html", "Reports/run.html"] + extra, in: folder.url,
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1, "\(result.output)")
        let lint = try ScenarioBinary.run(["lint"], in: folder.url)
        return [
            result.stdout, result.stderr, lint.output, try folder.read("Reports/junit.xml"), try folder.read("Reports/results.json"),
            try folder.read("Reports/run.html"),
        ]
        .joined(separator: "\n")
    }

    @Test(arguments: ["direct", "urlSession"])
    func noCanaryInAnyOutput(route: String) throws {
        let text = try outputs(route: route)
        for canary in Self.canaries {
            for form in Self.encodings(canary) {
                #expect(!text.contains(form), "\(route): '\(form)' (a form of '\(canary)') is in the output")
            }
        }
        #expect(text.contains("‹redacted#"))
    }

    @Test func showSecretsShowsThem() throws {
        let text = try outputs(route: "direct", extra: ["--show-secrets"])
        let shown = Self.canaries.filter { canary in Self.encodings(canary).contains { text.contains($0) } }
        #expect(shown.count >= 8, "only \(shown) reached the outputs: the canaries test too little")
    }
}

/// Seeded canaries planted in every place a secret can come from and in every encoding the
/// stack and the backend can put it in; every output of a failing run (both routes, every
/// console mode, annotations, JUnit, JSON, HTML), an imported scenario and a redacted HAR are
/// searched for every form of every canary (``CanaryForms``).
@Suite("Seeded canary secrets")
struct SeededCanaryTests {
    static let seed: UInt64 = 20_240_611

    /// The canaries by where they are planted.
    struct Planted {
        var given, header, query, path, json, form, textJSON, bearer, multipart, expected, state, named, nested, jwt: String
        var all: [String] { [given, header, query, path, json, form, textJSON, bearer, multipart, expected, state, named, nested, jwt] }

        init(seed: UInt64) {
            var generator = SeededGenerator(seed: seed)
            given = generator.canary("cgiven", specials: "+/=")
            header = generator.canary("chead")
            query = generator.canary("cquery", specials: "+/= ")
            path = generator.canary("cpath", specials: "-_")
            json = generator.canary("cjson", specials: "\"\\/")
            form = generator.canary("cform", specials: "+/= &")
            textJSON = generator.canary("ctext", specials: "/+")
            bearer = generator.canary("cbear", specials: "/+=")
            multipart = generator.canary("cmulti", specials: "+/")
            expected = generator.canary("cexp")
            state = generator.canary("cstate")
            named = generator.canary("cnamed")
            nested = generator.canary("cnest")
            let segment = { (generator: inout SeededGenerator, count: Int) in
                Data(generator.bytes(count)).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            jwt = "eyJhbGciOiJIUzI1NiJ9." + segment(&generator, 24) + "." + segment(&generator, 18)
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A scenario that meets every canary and fails at the end, so every report shows the run.
    static func scenario(_ c: Planted) -> String {
        var generator = SeededGenerator(seed: seed &+ 1)
        let formBody = "remember=1&password=" + CanaryForms.percent(c.form, spaceAsPlus: true, encode: { !CanaryForms.isUnreserved($0) })
        let blobs = (0..<3).flatMap { offset in
            [
                CanaryForms.blob(c.bearer, offset: offset, url: false, using: &generator),
                CanaryForms.blob(c.given, offset: offset, url: true, using: &generator),
            ]
        }
        // A binary body: the given token glued to letters and bytes, as a protobuf holds it.
        let binary = Data([0x0A, 0x64] + Array(c.given.utf8) + [0x51, 0xFF, 0x00] + Array(c.bearer.utf8) + [0x7A]).base64EncodedString()
        let multipart = "--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(c.multipart)\r\n--XyZ--\r\n"
        let blobsJSON = blobs.map(quoted).joined(separator: ", ")
        return """
            {
              "name": "Seeded canaries",
              "description": "Fails on purpose, with a secret in every place and encoding.",
              "secrets": ["favourite_colour"],
              "given": { "session": { "accessToken": \(quoted(c.given)), "refreshToken": "cgiven-refresh-77aa", "user": { "id": "u1" } } },
              "exchanges": [
                { "id": "profile", "request": { "method": "POST", "path": "/profile" },
                  "response": { "status": 200, "json": { "bearer": \(quoted(c.bearer)),
                    "passwordReset": { "message": "Check your inbox, Ana", "password": \(quoted(c.nested)) } } } },
                { "id": "blobs", "request": { "method": "GET", "path": "/blobs" }, "response": { "status": 200, "json": { "blobs": [\(blobsJSON)] } } },
                { "id": "login", "request": { "method": "POST", "path": "/login" }, "times": 2,
                  "response": { "status": 200, "headers": { "Content-Type": "text/plain" }, "text": \(quoted("{\"refresh_token\": \"\(c.textJSON)\"}")) } },
                { "id": "upload", "request": { "method": "GET", "path": "/upload" },
                  "response": { "status": 200, "headers": { "Content-Type": "multipart/form-data; boundary=XyZ" }, "text": \(quoted(multipart)) } },
                { "id": "binary", "request": { "method": "GET", "path": "/binary" },
                  "response": { "status": 200, "headers": { "Content-Type": "application/octet-stream" }, "base64": "\(binary)" } },
                { "id": "jwt", "request": { "method": "GET", "path": "/jwt" },
                  "response": { "status": 200, "headers": { "Content-Type": "text/plain" }, "text": "session \(c.jwt) issued" } },
                { "id": "reset", "request": { "method": "GET", "path": "/reset/\(c.path)", "query": { "access_token": \(quoted(c.query)) } },
                  "response": { "status": 200, "json": { "ok": true } } },
                { "id": "never", "request": { "method": "GET", "path": "/never", "headers": { "Authorization": "Bearer \(c.header)" } },
                  "response": { "status": 200 }, "optional": true }
              ],
              "steps": [
                { "do": "request", "with": { "method": "POST", "path": "/profile", "json": { "current_password": \(quoted(c.json)), "favourite_colour": \(quoted(c.named)) } } },
                { "do": "request", "with": { "method": "POST", "path": "/login", "json": \(quoted(formBody)) } },
                { "do": "request", "with": { "method": "POST", "path": "/login", "json": \(quoted("{\"password\":\(quoted(c.json))}")) } },
                { "do": "request", "with": { "path": "/blobs" } },
                { "do": "request", "with": { "path": "/upload" } },
                { "do": "request", "with": { "path": "/binary" } },
                { "do": "request", "with": { "path": "/jwt" } },
                { "do": "request", "with": { "path": "/reset/\(c.path)", "query": { "access_token": \(quoted(c.query)) } },
                  "expect": { "value": { "access_token": \(quoted(c.expected)) } } }
              ],
              "expect": { "state": { "tokens": { "access": \(quoted(c.state)) } }, "requests": { "total": 1001 } }
            }
            """
    }

    /// Every output of one failing run in one console mode.
    static func outputs(route: String, mode: [String], extra: [String] = []) throws -> String {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/canaries.json", scenario(Planted(seed: seed)))
        let result = try ScenarioBinary.run(
            ["run", "--route", route, "--jobs", "1", "--html", "Reports/run.html"] + mode + extra, in: folder.url,
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1, "\(result.output)")
        let lint = try ScenarioBinary.run(["lint"], in: folder.url)
        return [
            result.stdout, result.stderr, lint.output, try folder.read("Reports/junit.xml"), try folder.read("Reports/results.json"),
            try folder.read("Reports/run.html"),
        ]
        .joined(separator: "\n")
    }

    @Test(arguments: ["direct", "urlSession"], [[], ["--quiet"], ["--verbose"]])
    func noCanaryInAnyEncodingInAnyOutput(route: String, mode: [String]) throws {
        let text = try Self.outputs(route: route, mode: mode)
        let leaks = CanaryForms.leaks(of: Planted(seed: Self.seed).all, in: text)
        #expect(leaks.isEmpty, "\(route) \(mode): \(leaks.map { "'\($0.form)' (a form of '\($0.canary)')" })")
        #expect(text.contains("‹redacted#"))
        // Not secrets: the server's message under passwordReset, the count, the statuses.
        #expect(text.contains("Check your inbox, Ana"))
        #expect(text.contains("1001"))
        #expect(text.contains("← 200"))
    }

    @Test func showSecretsShowsEveryCanarySomewhere() throws {
        let text = try Self.outputs(route: "direct", mode: [], extra: ["--show-secrets"])
        let planted = Planted(seed: Self.seed)
        let shown = Set(CanaryForms.leaks(of: planted.all, in: text).map(\.canary))
        // The header of an exchange never used is not printed; every other canary is.
        let missing = planted.all.filter { !shown.contains($0) && $0 != planted.header }
        #expect(missing.isEmpty, "\(missing) never reach the outputs: the canaries test too little")
    }

    /// A capture with a canary in every place: header, query (`+ / =` percent-encoded), form,
    /// Basic credentials, multipart, a credential route, text/plain JSON, a binary body and
    /// base64 blobs at every alignment.
    static func trace(_ c: Planted, basicPassword: String) -> String {
        var generator = SeededGenerator(seed: seed &+ 2)
        let encodedQuery = CanaryForms.percent(c.query, encode: { !CanaryForms.isUnreserved($0) })
        let form = "username=ana&password=" + CanaryForms.percent(c.form, spaceAsPlus: true, encode: { !CanaryForms.isUnreserved($0) })
        let basic = Data("ana:\(basicPassword)".utf8).base64EncodedString()
        let multipart = "--XyZ\r\nContent-Disposition: form-data; name=\"api_secret\"\r\n\r\n\(c.multipart)\r\n--XyZ--\r\n"
        let binary = Data([0x0A, 0x64] + Array(c.bearer.utf8) + [0x51, 0xFF]).base64EncodedString()
        let blobs = (0..<3).map { CanaryForms.blob(c.given, offset: $0, url: $0 == 1, using: &generator) }
        func entry(
            _ method: String, _ url: String, headers: [(String, String)] = [], body: (String, String)? = nil,
            response: String = "{}", mimeType: String = "application/json", encoding: String? = nil
        ) -> String {
            let requestHeaders = headers.map { "{\"name\": \(quoted($0.0)), \"value\": \(quoted($0.1))}" }.joined(separator: ",")
            let post = body.map { ", \"postData\": {\"mimeType\": \(quoted($0.0)), \"text\": \(quoted($0.1))}" } ?? ""
            let encodingField = encoding.map { ", \"encoding\": \(quoted($0))" } ?? ""
            return """
                {"startedDateTime": "2026-03-02T13:00:00.000Z", "time": 5,
                 "request": {"method": "\(method)", "url": \(quoted(url)), "headers": [\(requestHeaders)]\(post)},
                 "response": {"status": 200, "headers": [{"name": "Content-Type", "value": \(quoted(mimeType))}],
                              "content": {"mimeType": \(quoted(mimeType)), "text": \(quoted(response))\(encodingField)}}}
                """
        }
        let entries = [
            entry(
                "POST", "https://api.example.test/account/form", headers: [("Authorization", "Basic \(basic)")],
                body: ("application/x-www-form-urlencoded", form),
                response: "{\"access_token\": \(quoted(c.given)), \"bearer\": \(quoted(c.bearer))}"),
            entry(
                "GET", "https://api.example.test/feed?access_token=\(encodedQuery)&page=2",
                headers: [("Authorization", "Bearer \(c.header)")],
                response: "{\"blobs\": [\(blobs.map(quoted).joined(separator: ", "))]}"),
            entry("POST", "https://api.example.test/upload", body: ("multipart/form-data; boundary=XyZ", multipart)),
            entry(
                "GET", "https://api.example.test/reset/\(c.path)", response: "{\"refresh_token\": \(quoted(c.textJSON))}",
                mimeType: "text/plain"),
            entry("GET", "https://api.example.test/blob", response: binary, mimeType: "application/octet-stream", encoding: "base64"),
            entry("GET", "https://api.example.test/jwt", response: "token \(c.jwt)", mimeType: "text/plain"),
        ]
        return
            "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"test\", \"version\": \"1\"}, \"entries\": [\(entries.joined(separator: ",\n"))]}}"
    }

    @Test func importAndRedactLeaveNoCanaryInAnyEncoding() throws {
        let planted = Planted(seed: Self.seed)
        var generator = SeededGenerator(seed: Self.seed &+ 3)
        let basicPassword = generator.canary("cbasic", specials: "+/")
        let folder = try TemporaryFolder()
        try folder.write("t.har", Self.trace(planted, basicPassword: basicPassword))
        let imported = try ScenarioBinary.run(["import", "t.har", "-o", "imported.json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.output)")
        let redacted = try ScenarioBinary.run(["redact", "t.har", "-o", "red.har"], in: folder.url)
        #expect(redacted.status == 0, "\(redacted.output)")
        let text = [imported.output, redacted.output, try folder.read("imported.json"), try folder.read("red.har")].joined(separator: "\n")
        let canaries = [
            planted.given, planted.header, planted.query, planted.path, planted.form, planted.textJSON, planted.bearer,
            planted.multipart, planted.jwt, basicPassword,
        ]
        let leaks = CanaryForms.leaks(of: canaries, in: text)
        #expect(leaks.isEmpty, "\(leaks.map { "'\($0.form)' (a form of '\($0.canary)')" })")
        #expect(text.contains("page=2") || text.contains("\"page\""))
        // With --keep-secrets the canaries are there: the search can fail.
        let kept = try ScenarioBinary.run(["import", "t.har", "--keep-secrets"], in: folder.url)
        #expect(CanaryForms.leaks(of: canaries, in: kept.output).count >= canaries.count - 2, "\(kept.output)")
    }
}
