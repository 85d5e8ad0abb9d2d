import Foundation
import ScenarioEngine

/// A HAR 1.2 capture, reduced to what scenarios need: the entries in capture order, each with
/// its request, its response (absent when the exporter recorded none) and its timing.
public struct HARLog: Sendable, Hashable {
    /// The tool that wrote the file (`creator.name`), if it said.
    package var creator: String
    /// The exchanges, in the order the file lists them.
    package var entries: [Entry]
    /// Bodies the file says are kept in files of their own (`_file`) that were not found beside
    /// it: those entries were read without them.
    package var attachedBodiesNotFound = 0
    /// The log's `comment`, written when set (the recorder says there why it saved the trace);
    /// reading ignores it.
    package var comment: String?

    /// Creates a log.
    package init(creator: String = "", entries: [Entry] = []) {
        self.creator = creator
        self.entries = entries
    }

    /// One request and what came back.
    package struct Entry: Sendable, Hashable {
        /// When the request started.
        package var started: Date
        /// Total time in milliseconds (`-1` timings are read as 0).
        package var time: Double
        /// The request.
        package var request: Request
        /// The response, or `nil` when the exporter recorded none (a failed or cancelled request).
        package var response: Response?
        /// How many other requests were in flight when this one was sent, when the recorder knew
        /// (`_inFlight`, written by ``RecordingTransport``): on a virtual clock, concurrent and
        /// back-to-back requests can share an instant, and only this tells them apart.
        package var inFlight: Int?
        /// What a browser said the request was for (`_resourceType`: `document`, `image`, `fetch`...), when it said.
        package var resourceType: String?
        /// Where the entry is written in its file, for messages; two entries that differ only
        /// there are the same entry.
        package var position = SourcePosition()
        /// The line of the entry's opening brace (1-based; 0 when it was not read from a file).
        package var line: Int {
            get { position.line }
            set { position.line = newValue }
        }
        /// The column of the entry's opening brace (1-based; 0 when it was not read from a file).
        package var column: Int {
            get { position.column }
            set { position.column = newValue }
        }

        /// Creates an entry.
        package init(started: Date, time: Double, request: Request, response: Response?, inFlight: Int? = nil) {
            self.started = started
            self.time = time
            self.request = request
            self.response = response
            self.inFlight = inFlight
        }

        /// When the response was complete.
        package var ended: Date { started.addingTimeInterval(max(0, time) / 1000) }
    }

    /// A captured request.
    package struct Request: Sendable, Hashable {
        /// The method, upper-cased.
        package var method: String
        /// The full URL as captured.
        package var url: String
        /// Header fields in captured order.
        package var headers: [Field]
        /// The body as text (`nil` when there is none).
        package var body: String?
        /// The body's MIME type, if said.
        package var mimeType: String?

        /// Creates a request.
        package init(method: String, url: String, headers: [Field] = [], body: String? = nil, mimeType: String? = nil) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.mimeType = mimeType
        }
    }

    /// A captured response.
    package struct Response: Sendable, Hashable {
        /// The status code.
        package var status: Int
        /// Header fields in captured order.
        package var headers: [Field]
        /// The body bytes (base64 bodies already decoded).
        package var body: Data
        /// The body's MIME type, if said.
        package var mimeType: String?

        /// Creates a response.
        package init(status: Int, headers: [Field] = [], body: Data = Data(), mimeType: String? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.mimeType = mimeType
        }
    }

    /// Where something was read: never part of equality, so a log written and read back is the same log.
    package struct SourcePosition: Sendable, Hashable {
        /// 1-based line, 0 when unknown.
        package var line = 0
        /// 1-based column, 0 when unknown.
        package var column = 0

        /// Creates a position.
        package init(line: Int = 0, column: Int = 0) {
            self.line = line
            self.column = column
        }

        /// Always equal: where an entry was read is not what it is.
        package static func == (lhs: SourcePosition, rhs: SourcePosition) -> Bool { true }
        /// Hashes nothing, matching `==`.
        package func hash(into hasher: inout Hasher) {}
    }

    /// One header field as captured (names keep their case; repeats are kept).
    package struct Field: Sendable, Hashable {
        /// The name.
        package var name: String
        /// The value.
        package var value: String

        /// Creates a field.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }
}

extension [HARLog.Field] {
    /// The first value of the field with this name, ignoring case.
    package func first(named name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
