extension TraceImportSpec {
    /// An endpoint: a method (or any) and a path pattern (`{name}` for one segment, final `*` for
    /// the rest).
    public struct Endpoint: Sendable, Hashable {
        /// The method, upper-case; `nil` matches any.
        public var method: String?
        /// The path pattern.
        public var path: String

        /// Creates an endpoint.
        public init(_ method: String?, _ path: String) {
            self.method = method
            self.path = path
        }

        /// Whether a request with this method and path is sent to this endpoint.
        package func matches(method: String, path: String) -> Bool {
            if let own = self.method, own != method { return false }
            // Segment by segment, without splitting either into arrays: this runs for every
            // request of a trace against every endpoint a driver names.
            var patternParts = Segments(self.path)
            var pathParts = Segments(path)
            while let part = patternParts.next() {
                if part == "*" && patternParts.isAtEnd { return true }
                guard let segment = pathParts.next() else { return false }
                if part.hasPrefix("{") && part.hasSuffix("}") {
                    if segment.isEmpty { return false }
                } else if part != segment {
                    return false
                }
            }
            return pathParts.isAtEnd
        }

        /// The parts of a path between slashes, empty ones included (`/a/` is "", "a", "").
        private struct Segments {
            private let text: String
            private var start: String.Index?

            init(_ text: String) {
                self.text = text
                start = text.startIndex
            }

            /// Whether every part was given.
            var isAtEnd: Bool { start == nil }

            mutating func next() -> Substring? {
                guard let from = start else { return nil }
                guard let slash = text.utf8[from...].firstIndex(of: UInt8(ascii: "/")) else {
                    start = nil
                    return text[from...]
                }
                start = text.utf8.index(after: slash)
                return text[from..<slash]
            }
        }
    }

    /// An endpoint, by its earlier name.
    @available(*, deprecated, renamed: "Endpoint")
    public typealias Route = Endpoint
}
