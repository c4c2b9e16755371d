"""Castle Assault: two warbands storm each other's castles down three lanes."""
