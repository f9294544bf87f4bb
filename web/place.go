package web

import (
	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
)

// place is where the reader is: the message chosen, the field chosen in it, what is collapsed
// and how far the lists are scrolled. An edit of the text, a format or an option chosen decode
// again; the page then finds the same place in the new decode (keepPlace).
type place struct {
	msg int
	// The message's LSN, when the text gave one, and how many messages before it have the
	// same LSN (a capture gives a transaction's changes the LSN of its Begin).
	lsn     uint64
	hasLSN  bool
	lsnRank int
	// node is the chosen field as a path from the top of the tree: the index of each node
	// among its parent's children (nil: none). sel is the bytes chosen without a field.
	node      []int
	sel       hexview.Range
	collapsed [][]int
	listTop   int
	treeTop   int
}

// place returns where the reader is in s.
func (s *State) place() place {
	p := place{msg: s.Msg, listTop: s.View[PanelList].Top, treeTop: s.View[PanelTree].Top}
	t := s.Tree()
	if t == nil {
		return p
	}
	if m := &s.Doc.Messages[s.Msg]; m.HasLSN {
		p.lsn, p.hasLSN = m.LSN, true
		for i := range s.Msg {
			if o := &s.Doc.Messages[i]; o.HasLSN && o.LSN == m.LSN {
				p.lsnRank++
			}
		}
	}
	if s.Node >= 0 {
		p.node = treePath(t, s.Node)
	} else {
		p.sel = s.Sel
	}
	for n, c := range s.Collapsed {
		if c {
			p.collapsed = append(p.collapsed, treePath(t, n))
		}
	}
	return p
}

// messageIn returns the message of d at place p: the one with the same LSN and as many before
// it with that LSN, when p's message had an LSN and d has such a message; else the same index.
func (p *place) messageIn(d *Doc) int {
	if p.hasLSN {
		rank := 0
		for i := range d.Messages {
			if m := &d.Messages[i]; m.HasLSN && m.LSN == p.lsn {
				if rank == p.lsnRank {
					return i
				}
				rank++
			}
		}
	}
	return min(max(p.msg, 0), max(len(d.Messages)-1, 0))
}

// keepPlace shows, in s's Doc, the place p of the decode before: the same message, the field
// at the same path (or the nearest of its ancestors there is), the same nodes collapsed, and
// the lists scrolled as they were.
func (s State) keepPlace(p place) (State, []Effect) {
	if s.Doc == nil || len(s.Doc.Messages) == 0 {
		s.selectMessage(0, false)
		return s, nil
	}
	m := p.messageIn(s.Doc)
	s.Doc = s.Doc.Through(m)
	s.View[PanelList].Top = p.listTop
	shown := s.Shown
	fx := s.selectMessage(m, true)
	s.Shown = shown // the same message, decoded again
	t := s.Tree()
	if len(p.collapsed) > 0 {
		c := map[int32]bool{}
		for _, path := range p.collapsed {
			if n, whole := nodeAtPath(t, path); whole && !t.IsLeaf(int(n)) {
				c[n] = true
			}
		}
		s.Collapsed, s.TreeRows = c, VisibleNodes(t, c)
	}
	fx = dropScroll(fx, PanelTree)
	s.View[PanelTree].Top = p.treeTop
	fx = append(fx, EffectScroll{Panel: PanelTree, Top: p.treeTop})
	if p.node != nil {
		n, _ := nodeAtPath(t, p.node)
		var more []Effect
		more = s.selectNode(n, true)
		fx = append(fx, more...)
	} else if !p.sel.Empty() && p.sel.End() <= len(t.Bytes) {
		s.Sel = p.sel
	}
	return s, fx
}

// dropScroll removes the scrolls of panel p from fx.
func dropScroll(fx []Effect, p Panel) []Effect {
	out := fx[:0:0]
	for _, f := range fx {
		if sc, ok := f.(EffectScroll); ok && sc.Panel == p {
			continue
		}
		out = append(out, f)
	}
	return out
}

// treePath returns node n of t as a path from the top: the index of each node on the way among
// its parent's children (the top-level nodes count as the children of the whole tree).
func treePath(t *decoder.Tree, n int32) []int {
	var path []int
	first, end := int32(0), int32(len(t.Nodes))
	for {
		c, k := first, 0
		for c < end && (n < c || n >= t.Nodes[c].End) {
			c, k = t.Nodes[c].End, k+1
		}
		if c >= end {
			return path // n is not in the tree
		}
		path = append(path, k)
		if c == n {
			return path
		}
		first, end = c+1, t.Nodes[c].End
	}
}

// nodeAtPath returns the node of t at path, or the deepest node on the way to it when the
// path goes further than t does (whole is then false); 0 for an empty path.
func nodeAtPath(t *decoder.Tree, path []int) (n int32, whole bool) {
	if len(t.Nodes) == 0 {
		return -1, false
	}
	n = -1
	first, end := int32(0), int32(len(t.Nodes))
	for _, k := range path {
		c := first
		for ; c < end && k > 0; k-- {
			c = t.Nodes[c].End
		}
		if c >= end {
			return max(n, 0), false
		}
		n = c
		first, end = c+1, t.Nodes[c].End
	}
	return max(n, 0), true
}
