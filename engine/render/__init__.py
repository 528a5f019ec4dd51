"""Pictures of puzzles: printable sheets (SVG, PDF, PNG) and a page to play in a browser.

A puzzle type draws one puzzle (``render_svg``, helped by ``svg.GridDrawing``) and says
how its board is played (``play_grid``, a ``play.PlayGrid``); this package does the rest.
``sources`` reads the puzzles to draw, ``caption`` writes what stands under each,
``sheet`` lays drawings out on pages, ``convert`` turns pages into PDF and PNG, ``html``
writes the play page, and ``document`` puts them together for ``puzzle-engine render``.
"""
