import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsDefined, IsIn, IsNumber, IsObject, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';

export class GoalChartsDto {
  @ApiProperty({ enum: ['single', 'multi', 'folder'] })
  @IsIn(['single', 'multi', 'folder'], { message: "charts.type must be 'single', 'multi' or 'folder'" })
  type!: 'single' | 'multi' | 'folder';

  @ApiProperty({
    description: 'single: a chartID; multi: 2 to 10 chartIDs; folder: a folderID.',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  })
  @IsDefined({ message: 'charts.data is required' })
  @Allow()
  data!: unknown;
}

export class GoalCriteriaDto {
  @ApiProperty({ enum: ['score', 'percent', 'lamp', 'grade'], description: 'lamp and grade values are indexes into the GPT’s lamps and grades.' })
  @IsString({ message: 'criteria.key must be a string' })
  key!: string;

  @ApiProperty()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'criteria.value must be a number' })
  value!: number;

  @ApiProperty({ enum: ['single', 'absolute', 'proportion'] })
  @IsIn(['single', 'absolute', 'proportion'], { message: "criteria.mode must be 'single', 'absolute' or 'proportion'" })
  mode!: 'single' | 'absolute' | 'proportion';

  @ApiPropertyOptional({ description: 'absolute: how many charts (a whole number from 2); proportion: a fraction in (0, 1]. Absent in mode single.' })
  @OptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'criteria.countNum must be a number' })
  countNum?: number;
}

/** POST /targets/goals/add-goal. */
export class AddGoalDto {
  @ApiProperty({ type: GoalChartsDto })
  @IsObject({ message: 'charts must be an object' })
  @ValidateNested()
  @Type(() => GoalChartsDto)
  charts!: GoalChartsDto;

  @ApiProperty({ type: GoalCriteriaDto })
  @IsObject({ message: 'criteria must be an object' })
  @ValidateNested()
  @Type(() => GoalCriteriaDto)
  criteria!: GoalCriteriaDto;
}

export class TargetSearchQuery {
  @ApiPropertyOptional({ description: 'Part of the name (case-insensitive). Absent: all of the GPT’s, by name (at most 100).' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;
}

export class EvaluateForQuery {
  @ApiProperty({ description: 'The user: an id, a username (case-insensitive) or me.' })
  @IsString()
  @Length(1, 40)
  userID!: string;
}
