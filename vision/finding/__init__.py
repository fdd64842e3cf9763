"""The card finder's parts (``vision.finder`` puts them together): rough candidates
(``cues``, ``corners``), snapping sides onto outlines (``snap``), choosing the cards
(``select``), on quads as arrays (``quads``)."""
