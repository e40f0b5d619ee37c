/// When a person at a card moment would pay: the card is of use from `matchBeforeSeconds` before `arrival` until
/// `payBy`.
///
/// A moment merges every visit to a network within the cool-down, so that one card answers them all, but a person
/// who leaves and comes back pays again: a visit that begins after the person was seen leaving the till's visits is
/// a till of its own. A visit that overlaps them (the chain's other store in the same building), or follows a
/// recording gap that began inside the store (`Visit.seenLeaving` false), belongs to the till so far and lengthens
/// its stay.
package struct Till: Sendable, Hashable {
    package var arrival: Double
    package var payBy: Double
}

extension GroundTruthModel {
    /// The tills of `moment`, in time order; the first starts at the moment's arrival. Each comes at arrival +
    /// min(the category's till time, half the stay of the visits that form it).
    package func tills(_ moment: CardMoment, category: String?) -> [Till] {
        let payAfter = payAfterSeconds(category: category)
        func till(_ arrival: Double, _ end: Double) -> Till { Till(arrival: arrival, payBy: arrival + min(payAfter, (end - arrival) / 2)) }
        var tills: [Till] = []
        var arrival = moment.arrival
        var end = moment.arrival
        var seenLeaving = false
        for visit in moment.visits {
            if visit.arrival > end && seenLeaving {
                tills.append(till(arrival, end))
                arrival = visit.arrival
                end = visit.departure
                seenLeaving = visit.seenLeaving
            } else if visit.departure >= end {
                end = visit.departure
                seenLeaving = visit.seenLeaving
            }
        }
        tills.append(till(arrival, end))
        return tills
    }

    /// The till a card at `time` answers: the last whose window has opened by then (the first when none has).
    package func till(at time: Double, among tills: [Till]) -> Till {
        tills.last { $0.arrival - matchBeforeSeconds <= time } ?? tills[0]
    }

    /// Whether a card at `time` comes by the till it answers (that it comes after the moment's window opens is the
    /// matching's to say).
    package func comesInTime(_ time: Double, among tills: [Till]) -> Bool {
        time <= till(at: time, among: tills).payBy
    }
}
