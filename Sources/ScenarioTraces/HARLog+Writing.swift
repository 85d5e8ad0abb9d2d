import Foundation
import ScenarioEngine

extension HARLog {
    /// The log as HAR 1.2 JSON: every required field present, bodies as text when they are text
    /// and as base64 when they are bytes (``BodyKind``), so any HAR reader (ours included) takes
    /// them back byte for byte.
    package func harDocument(creatorVersion: String = "0.1.0") -> JSONValue {
        let formatter = Self.instantFormatter()
        var log: JSONObject = [
            "version": "1.2",
            "creator": ["name": .string(creator.isEmpty ? "SessionScenarios" : creator), "version": .string(creatorVersion)],
            "entries": .array(entries.map { Self.entryDocument($0, formatter: formatter) }),
        ]
        if let comment { log["comment"] = .string(comment) }
        return ["log": .object(log)]
    }

    /// The same document as text (what ``writeHAR(creatorVersion:to:)`` writes).
    public func harText(creatorVersion: String = "0.1.0") -> String {
        var text: [UInt8] = []
        writeHAR(creatorVersion: creatorVersion) { text += $0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// The same document as text, handed to `write` one entry at a time in pieces of about a
    /// megabyte: a large log is never also held as one JSON tree or one text.
    package func writeHAR(creatorVersion: String = "0.1.0", to write: ([UInt8]) -> Void) {
        let formatter = Self.instantFormatter()
        let creator: JSONValue = ["name": .string(creator.isEmpty ? "SessionScenarios" : creator), "version": .string(creatorVersion)]
        var out = Array("{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"creator\": ".utf8)
        creator.write(to: &out, pretty: false, level: 0)
        if let comment {
            out += Array(",\n    \"comment\": ".utf8)
            JSONValue.string(comment).write(to: &out, pretty: false, level: 0)
        }
        out += Array(",\n    \"entries\": [".utf8)
        for (index, entry) in entries.enumerated() {
            out += Array((index == 0 ? "\n      " : ",\n      ").utf8)
            // Three levels in: each line of the entry is indented under `entries`.
            Self.entryDocument(entry, formatter: formatter).write(to: &out, pretty: true, level: 3)
            if out.count >= 1 << 20 {
                write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        out += Array((entries.isEmpty ? "]\n  }\n}\n" : "\n    ]\n  }\n}\n").utf8)
        write(out)
    }

    private static func instantFormatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    private static func entryDocument(_ entry: Entry, formatter: ISO8601DateFormatter) -> JSONValue {
        let time = (entry.time * 1000).rounded() / 1000
        var object: JSONObject = [
            "startedDateTime": .string(formatter.string(from: entry.started)),
            "time": .number(time),
            "request": Self.requestDocument(entry.request),
            "response": entry.response.map(Self.responseDocument) ?? Self.missingResponse,
            "cache": [:],
            "timings": ["send": 0, "wait": .number(time), "receive": 0],
        ]
        if let inFlight = entry.inFlight { object["_inFlight"] = .number(Double(inFlight)) }
        return .object(object)
    }

    private static func requestDocument(_ request: Request) -> JSONValue {
        var object: JSONObject = [
            "method": .string(request.method),
            "url": .string(request.url),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": fieldsDocument(request.headers),
            "queryString": .array(
                (URLComponents(string: request.url)?.queryItems ?? []).map { ["name": .string($0.name), "value": .string($0.value ?? "")] }),
            "headersSize": -1,
            "bodySize": .number(Double(request.body?.utf8.count ?? 0)),
        ]
        if let body = request.body {
            object.appendNew("postData", ["mimeType": .string(request.mimeType ?? ""), "text": .string(body)])
        }
        return .object(object)
    }

    private static func responseDocument(_ response: Response) -> JSONValue {
        var content: JSONObject = [
            "size": .number(Double(response.body.count)), "mimeType": .string(response.mimeType ?? ""),
        ]
        if !response.body.isEmpty {
            // Bytes go as base64 (MessagePack, protobuf), so they come back as they were.
            if !BodyKind.isBinary(response.body, contentType: response.mimeType), let text = String(data: response.body, encoding: .utf8) {
                content.appendNew("text", .string(text))
            } else {
                content.appendNew("text", .string(response.body.base64EncodedString()))
                content.appendNew("encoding", "base64")
            }
        }
        return [
            "status": .number(Double(response.status)),
            "statusText": .string(HTTPStatusText.text(for: response.status)),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": fieldsDocument(response.headers),
            "content": .object(content),
            "redirectURL": .string(response.headers.first(named: "Location") ?? ""),
            "headersSize": -1,
            "bodySize": .number(Double(response.body.count)),
        ]
    }

    /// HAR has no way to say "no response": tools write status 0, as browsers do for failures.
    private static let missingResponse: JSONValue = [
        "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
        "content": ["size": 0, "mimeType": ""], "redirectURL": "", "headersSize": -1, "bodySize": -1,
        "_error": "no response",
    ]

    private static func fieldsDocument(_ fields: [Field]) -> JSONValue {
        .array(fields.map { ["name": .string($0.name), "value": .string($0.value)] })
    }
}

/// Reason phrases for the statuses a session layer meets; others get an empty phrase.
private enum HTTPStatusText {
    static func text(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: ""
        }
    }
}
