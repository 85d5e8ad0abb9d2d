/// A schedule written out as its departures from first in, first out: at which of the
/// scheduler's choices another job ran than the one queued first, and which answers came late
/// and by how much. What a seeded schedule did, recorded, replays as one of these; shrinking a
/// schedule removes departures until none can go.
///
/// Choices and draws are counted within the step they fall in (step 0 is the stack's start,
/// the step after the last one the end of the run), so that a departure keeps its place when
/// steps before it are taken out. Its text is `step3.pick12=1,step5.late1=250ms` (`fifo` when
/// there is none): at the 12th choice of step 3 the job at position 1 of those that could run
/// ran, and the first answer drawn in step 5 while others were in flight came 250 ms late.
package struct ExplicitSchedule: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A choice or a draw: the step it falls in, and which of that step's it is (1-based).
    package struct Place: Sendable, Hashable, Codable, Comparable {
        package var step: Int
        package var number: Int

        package init(step: Int, number: Int) {
            self.step = step
            self.number = number
        }

        package static func < (lhs: Place, rhs: Place) -> Bool { (lhs.step, lhs.number) < (rhs.step, rhs.number) }
    }

    /// Where the scheduler chose other than first in, first out, and the position it chose.
    package var picks: [Place: Int]
    /// Which answers came late, and how late.
    package var late: [Place: Duration]

    /// A schedule of these departures.
    package init(picks: [Place: Int] = [:], late: [Place: Duration] = [:]) {
        self.picks = picks
        self.late = late
    }

    /// Whether it departs from first in, first out at all.
    package var isEmpty: Bool { picks.isEmpty && late.isEmpty }

    /// One departure, so a list of them can be cut down.
    package enum Departure: Sendable, Hashable {
        case pick(Place, position: Int)
        case late(Place, by: Duration)
    }

    /// Its departures, in the order of their places.
    package var departures: [Departure] {
        // By step, a step's choices before its late answers, each kind in order.
        picks.map { Departure.pick($0.key, position: $0.value) }.sorted { $0.place < $1.place }
            + late.map { .late($0.key, by: $0.value) }.sorted { $0.place < $1.place }
    }

    /// The schedule of just these departures.
    package init(_ departures: [Departure]) {
        self.init()
        for departure in departures {
            switch departure {
            case .pick(let place, let position): picks[place] = position
            case .late(let place, let delay): late[place] = delay
            }
        }
    }

    /// The same departures where steps moved: `step(n)` is where step `n` went, `nil` when it is gone.
    package func moved(_ step: (Int) -> Int?) -> ExplicitSchedule {
        ExplicitSchedule(
            departures.compactMap { departure in
                switch departure {
                case .pick(let place, let position):
                    step(place.step).map { .pick(Place(step: $0, number: place.number), position: position) }
                case .late(let place, let delay): step(place.step).map { .late(Place(step: $0, number: place.number), by: delay) }
                }
            })
    }

    /// `step3.pick12=1,step5.late1=250ms`, or `fifo`.
    package var description: String {
        guard !isEmpty else { return "fifo" }
        return departures.map { departure in
            switch departure {
            case .pick(let place, let position): "step\(place.step).pick\(place.number)=\(position)"
            case .late(let place, let delay): "step\(place.step).late\(place.number)=\(DurationText.format(delay))"
            }
        }.joined(separator: ",")
    }

    /// Reads the text ``description`` writes; `nil` for anything else.
    package init?(parsing text: String) {
        self.init()
        guard text != "fifo" else { return }
        for token in text.split(separator: ",", omittingEmptySubsequences: false) {
            let sides = token.split(separator: "=", omittingEmptySubsequences: false)
            let parts = sides.first?.split(separator: ".", omittingEmptySubsequences: false) ?? []
            guard sides.count == 2, parts.count == 2, parts[0].hasPrefix("step"), let step = Int(parts[0].dropFirst(4)), step >= 0
            else { return nil }
            if parts[1].hasPrefix("pick"), let number = Int(parts[1].dropFirst(4)), number >= 1, let position = Int(sides[1]),
                position >= 0
            {
                guard picks.updateValue(position, forKey: Place(step: step, number: number)) == nil else { return nil }
            } else if parts[1].hasPrefix("late"), let number = Int(parts[1].dropFirst(4)), number >= 1,
                let delay = try? DurationText.parse(String(sides[1])), delay > .zero
            {
                guard late.updateValue(delay, forKey: Place(step: step, number: number)) == nil else { return nil }
            } else {
                return nil
            }
        }
    }

    // Durations as nanoseconds: `Duration`'s own coding is not on every platform this builds for.
    private enum CodingKeys: String, CodingKey { case picks, late }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        picks = try container.decode([Place: Int].self, forKey: .picks)
        late = try container.decode([Place: Int64].self, forKey: .late).mapValues { .nanoseconds($0) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(picks, forKey: .picks)
        try container.encode(late.mapValues(\.nanoseconds), forKey: .late)
    }
}

extension ExplicitSchedule.Departure {
    var place: ExplicitSchedule.Place {
        switch self {
        case .pick(let place, _), .late(let place, _): place
        }
    }
}

/// Counts choices or draws within the step they fall in, for an ``ExplicitSchedule``.
struct StepCounter {
    private(set) var step = 0
    private var number = 0

    mutating func enter(_ step: Int) {
        self.step = step
        number = 0
    }

    /// The place of the next choice or draw.
    mutating func next() -> ExplicitSchedule.Place {
        number += 1
        return ExplicitSchedule.Place(step: step, number: number)
    }
}
