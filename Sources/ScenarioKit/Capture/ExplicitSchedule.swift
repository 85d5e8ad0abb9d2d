/// A schedule written out as its departures from first in, first out: at which picks of the
/// scheduler another job ran than the one queued first, and which answers came late and by how
/// much. What a seeded schedule did, recorded, replays as one of these; shrinking a schedule
/// removes departures until none can go.
///
/// Its text is `pick12=1,pick40=0,late3=250ms` (`fifo` when there is none): at the scheduler's
/// 12th pick the job at position 1 of those that could run ran, and the 3rd answer drawn while
/// others were in flight came 250 ms late.
package struct ExplicitSchedule: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Pick number (1-based, counted as the scheduler picks) to the position chosen there.
    package var picks: [Int: Int]
    /// Draw number (1-based, counted over answers due while others are in flight) to how late it came.
    package var late: [Int: Duration]

    /// A schedule of these departures.
    package init(picks: [Int: Int] = [:], late: [Int: Duration] = [:]) {
        self.picks = picks
        self.late = late
    }

    /// Whether it departs from first in, first out at all.
    package var isEmpty: Bool { picks.isEmpty && late.isEmpty }

    /// How many departures it makes.
    package var count: Int { picks.count + late.count }

    /// One departure, so a list of them can be cut down.
    package enum Departure: Sendable, Hashable {
        case pick(Int, position: Int)
        case late(Int, by: Duration)
    }

    /// Its departures, picks first, each in order.
    package var departures: [Departure] {
        picks.sorted { $0.key < $1.key }.map { .pick($0.key, position: $0.value) }
            + late.sorted { $0.key < $1.key }.map { .late($0.key, by: $0.value) }
    }

    /// The schedule of just these departures.
    package init(_ departures: [Departure]) {
        self.init()
        for departure in departures {
            switch departure {
            case .pick(let pick, let position): picks[pick] = position
            case .late(let draw, let delay): late[draw] = delay
            }
        }
    }

    /// `pick12=1,late3=250ms`, or `fifo`.
    package var description: String {
        guard !isEmpty else { return "fifo" }
        return departures.map { departure in
            switch departure {
            case .pick(let pick, let position): "pick\(pick)=\(position)"
            case .late(let draw, let delay): "late\(draw)=\(DurationParser.format(delay))"
            }
        }.joined(separator: ",")
    }

    /// Reads the text ``description`` writes; `nil` for anything else.
    package init?(parsing text: String) {
        self.init()
        guard text != "fifo" else { return }
        for token in text.split(separator: ",", omittingEmptySubsequences: false) {
            let sides = token.split(separator: "=", omittingEmptySubsequences: false)
            guard sides.count == 2 else { return nil }
            if sides[0].hasPrefix("pick"), let pick = Int(sides[0].dropFirst(4)), pick >= 1, let position = Int(sides[1]),
                position >= 0, picks[pick] == nil
            {
                picks[pick] = position
            } else if sides[0].hasPrefix("late"), let draw = Int(sides[0].dropFirst(4)), draw >= 1, late[draw] == nil,
                let delay = try? DurationParser.parse(String(sides[1])), delay > .zero
            {
                late[draw] = delay
            } else {
                return nil
            }
        }
    }

    // Durations as nanoseconds: `Duration`'s own coding is not on every platform this builds for.
    private enum CodingKeys: String, CodingKey { case picks, late }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        picks = try container.decode([Int: Int].self, forKey: .picks)
        late = try container.decode([Int: Int64].self, forKey: .late).mapValues { .nanoseconds($0) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(picks, forKey: .picks)
        try container.encode(late.mapValues(\.nanoseconds), forKey: .late)
    }
}
