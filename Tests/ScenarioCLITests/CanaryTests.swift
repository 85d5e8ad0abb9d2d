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
