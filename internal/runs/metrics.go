package runs

// Metrics is one iteration's line of a run's metrics file (MetricsFile):
// the training loop writes it, the web server reads it.
type Metrics struct {
	Iteration  int     `json:"iteration"`
	Time       string  `json:"time"`
	ElapsedSec float64 `json:"elapsed_s"`

	Games          int     `json:"games"`
	Positions      int     `json:"positions"`
	GamesPerHour   float64 `json:"games_per_hour"`
	PositionsPerS  float64 `json:"positions_per_s"`
	SimsPerS       float64 `json:"sims_per_s"`
	MeanGameLength float64 `json:"mean_game_length"`
	WhiteWins      int     `json:"white_wins"`
	BlackWins      int     `json:"black_wins"`
	Draws          int     `json:"draws"`
	// Adjudicated counts games stopped at the ply cap; AdjudicatedWins
	// those of them scored a win by material.
	Adjudicated     int `json:"adjudicated"`
	AdjudicatedWins int `json:"adjudicated_wins"`
	Resigned        int `json:"resigned"`
	NoResignGames   int `json:"no_resign_games"`
	// ResignThreshold is the threshold in force (0: no resignation).
	// FalseResignRate is, among this iteration's played-out sides that would
	// have resigned at that threshold (or, while none is in force, at the
	// calibrated one), the fraction that did not lose; ResignChecked counts
	// them, ResignCapped the would-be resignations in capped games, which
	// count as neither.
	ResignThreshold float64  `json:"resign_threshold"`
	FalseResignRate *float64 `json:"false_resign_rate,omitempty"`
	ResignChecked   int      `json:"resign_checked"`
	ResignCapped    int      `json:"resign_capped"`

	// Held-out metrics: the new positions scored by the network that
	// played them, before it trains on them (package train's heldout).
	HeldoutValueLoss     float64 `json:"heldout_value_loss"`
	HeldoutValueBaseline float64 `json:"heldout_value_baseline"`
	HeldoutPolicyKL      float64 `json:"heldout_policy_kl"`

	BufferSize     int     `json:"buffer_size"`
	TotalPositions int     `json:"total_positions"`
	Steps          int     `json:"steps"`
	TotalSteps     int64   `json:"total_steps"`
	TrainPosPerS   float64 `json:"train_positions_per_s"`
	LearningRate   float64 `json:"learning_rate"`
	// LossPolicy is the policy cross-entropy over the legal moves; it is
	// PolicyEntropy (the targets' own entropy, which no network can go
	// below) plus PolicyKL (what the network can still learn).
	LossPolicy    float64 `json:"loss_policy"`
	PolicyEntropy float64 `json:"policy_entropy"`
	PolicyKL      float64 `json:"policy_kl"`
	LossValue     float64 `json:"loss_value"`
	LossL2        float64 `json:"loss_l2"`
	LossTotal     float64 `json:"loss_total"`
	// SkippedShards counts unreadable replay shards skipped on resume.
	SkippedShards int `json:"skipped_shards,omitempty"`

	// Workers ("learn") are the round's shards per self-play worker;
	// Games and GamesPerHour then add them up. StaleShards counts the
	// shards dropped for their old network, RejectedShards the unusable
	// ones (malformed, damaged, over the size limit) since the last round.
	Workers        []WorkerMetrics `json:"workers,omitempty"`
	StaleShards    int             `json:"stale_shards,omitempty"`
	RejectedShards int             `json:"rejected_shards,omitempty"`

	// Eval is present on iterations that measured strength.
	Eval *EvalMetrics `json:"eval,omitempty"`
}

// EvalMetrics is the strength measured against the references.
type EvalMetrics struct {
	VsRandom    *MatchScore `json:"vs_random,omitempty"`
	VsAlphaBeta *MatchScore `json:"vs_alphabeta,omitempty"`
	VsPrevious  *MatchScore `json:"vs_previous,omitempty"`
	// Elo is an estimate anchored at the alpha-beta reference (0): the
	// Elo difference measured against it.
	Elo float64 `json:"elo"`
}

// MatchScore is a short match's outcome from the checkpoint's side.
type MatchScore struct {
	Opponent string     `json:"opponent"`
	Wins     int        `json:"wins"`
	Draws    int        `json:"draws"`
	Losses   int        `json:"losses"`
	Score    float64    `json:"score"`
	Elo      float64    `json:"elo"`
	CI95     [2]float64 `json:"ci95"`
}

// WorkerMetrics is one self-play worker's share of a learner's round.
type WorkerMetrics struct {
	Worker    string `json:"worker"`
	Shards    int    `json:"shards"`
	Games     int    `json:"games"`
	Positions int    `json:"positions"`
	// PlaySeconds is the time the worker spent on the games, GamesPerHour
	// its rate over that time.
	PlaySeconds  float64 `json:"play_s"`
	GamesPerHour float64 `json:"games_per_hour"`
}
