package fidelity

func intsetCases() []fcase { return nil }
