/// What counts as a real store visit, and how notifications are matched to card moments.
package struct GroundTruthModel: Codable, Sendable, Hashable {
    /// A visit: the true path within the store's footprint plus fix accuracy for at least this long.
    package var minDwellSeconds: Double = 120
    /// The store's footprint when the location has no radius of its own.
    package var storeRadiusMeters: Double = 100
    /// Fix accuracy assumed when the path has none.
    package var nominalAccuracyMeters: Double = 10
    /// A notification matches a card moment from this long before arrival...
    package var matchBeforeSeconds: Double = 300
    /// ...until this long after departure (0: it must come while the person is there).
    package var matchAfterSeconds: Double = 0
    /// The till: a moment is *served* when its card comes from `matchBeforeSeconds` before arrival until arrival +
    /// min(this, half the stay), when the person would pay; a card after that came too late to use. A moment that
    /// merges a return visit has a till at each (`Till`).
    package var payAfterSeconds: Double = 600
    /// `payAfterSeconds` for the networks of a category (a coffee shop's till comes sooner than a warehouse's).
    package var payAfterByCategory: [CategoryPayAfter] = []
    /// A catch is on time from this long before arrival until this long after it; earlier is early, later is late.
    package var onTimeBeforeSeconds: Double = 120
    package var onTimeAfterSeconds: Double = 60
    /// Stores farther than this from every fix are not considered.
    package var candidateMarginMeters: Double = 2_000
    /// A folder, relative to each trace file's folder, holding the noiseless path of that trace as `<stem>.csv`
    /// (time, lat, lon): ground truth and the ideal oracle then follow it instead of the recorded fixes. Empty: the
    /// trace is its own truth.
    package var truePaths: String = ""

    package init() {}
}

extension GroundTruthModel {
    /// One category's time from arrival to the till.
    package struct CategoryPayAfter: Codable, Sendable, Hashable {
        package var category: String
        package var seconds: Double

        package init(category: String, seconds: Double) {
            self.category = category
            self.seconds = seconds
        }
    }

    /// Seconds from arrival to the till at a network of `category`.
    package func payAfterSeconds(category: String?) -> Double {
        guard let category, let found = payAfterByCategory.first(where: { $0.category == category }) else { return payAfterSeconds }
        return found.seconds
    }
}
