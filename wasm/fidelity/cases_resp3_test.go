package fidelity

func resp3Cases() []fcase { return nil }
